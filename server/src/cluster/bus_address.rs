//! The address of the hall's bus (`--bus`): a NATS server's URL, which may carry what that
//! server asks of its clients, `nats://user:password@host` or `nats://token@host` (a lone user
//! name is a token to NATS). async-nats does not read them from the URL, so they are taken out
//! here and given to it as options; and the address is shown (in errors) without its secret.

use std::str::FromStr;

use anyhow::anyhow;
use async_nats::{ConnectOptions, ServerAddr};
use percent_encoding::percent_decode_str;

#[derive(Clone)]
pub struct BusAddress {
    /// The server, without credentials.
    server: ServerAddr,
    credentials: Credentials,
}

#[derive(Clone)]
enum Credentials {
    None,
    Token(String),
    UserAndPassword { user: String, password: String },
}

impl FromStr for BusAddress {
    type Err = anyhow::Error;

    /// The address as typed. A refusal never repeats it: it may hold a password.
    fn from_str(text: &str) -> anyhow::Result<BusAddress> {
        let server: ServerAddr = text
            .parse()
            .map_err(|error| anyhow!("the bus address is not a NATS server's address: {error}"))?;
        let decoded = |part: &str| percent_decode_str(part).decode_utf8_lossy().into_owned();
        let credentials = match (server.username(), server.password()) {
            (None, None) => Credentials::None,
            (Some(token), None) => Credentials::Token(decoded(token)),
            (user, Some(password)) => Credentials::UserAndPassword {
                user: decoded(user.unwrap_or_default()),
                password: decoded(password),
            },
        };
        let mut url = server.into_inner();
        // Only a URL that cannot have credentials refuses to lose them; a NATS URL has a host.
        let _ = url.set_username("");
        let _ = url.set_password(None);
        let server = ServerAddr::from_url(url)
            .map_err(|error| anyhow!("the bus address is not a NATS server's address: {error}"))?;
        Ok(BusAddress {
            server,
            credentials,
        })
    }
}

/// Shown without its secret, should a configuration be printed.
impl std::fmt::Debug for BusAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.shown())
    }
}

impl BusAddress {
    pub fn server(&self) -> ServerAddr {
        self.server.clone()
    }

    /// `options` with the credentials, if the address has any.
    pub fn authenticate(&self, options: ConnectOptions) -> ConnectOptions {
        match &self.credentials {
            Credentials::None => options,
            Credentials::Token(token) => options.token(token.clone()),
            Credentials::UserAndPassword { user, password } => {
                options.user_and_password(user.clone(), password.clone())
            }
        }
    }

    /// The address as it may be shown: `nats://user:…@host:4222`, `nats://…@host:4222` (a
    /// token), or without `…@` where it has no secret.
    pub fn shown(&self) -> String {
        let url = self.server.as_url_str();
        let secret = match &self.credentials {
            Credentials::None => return url.to_string(),
            Credentials::Token(_) => "…@".to_string(),
            Credentials::UserAndPassword { user, .. } => format!("{user}:…@"),
        };
        match url.split_once("://") {
            Some((scheme, rest)) => format!("{scheme}://{secret}{rest}"),
            None => format!("{secret}{url}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        text.parse::<BusAddress>().unwrap().shown()
    }

    #[test]
    fn an_address_is_shown_without_its_secret() {
        assert_eq!(shown("nats://127.0.0.1:4222"), "nats://127.0.0.1:4222");
        assert_eq!(shown("nats://ada:s3cret@bus:4222"), "nats://ada:…@bus:4222");
        assert_eq!(shown("nats://t0ken@bus"), "nats://…@bus");
        assert_eq!(shown("tls://ada:pw@[::1]:4443"), "tls://ada:…@[::1]:4443");
        let address: BusAddress = "nats://ada:s3cret@bus:4222".parse().unwrap();
        assert!(!address.server().as_url_str().contains("s3cret"));
        assert!(!format!("{address:?}").contains("s3cret"));
    }

    #[test]
    fn credentials_are_taken_decoded_from_the_address() {
        let address: BusAddress = "nats://ada:p%40ss%3Aword@bus".parse().unwrap();
        let Credentials::UserAndPassword { user, password } = &address.credentials else {
            panic!("a user and a password")
        };
        assert_eq!((user.as_str(), password.as_str()), ("ada", "p@ss:word"));
        let token: BusAddress = "nats://t0ken@bus".parse().unwrap();
        assert!(matches!(&token.credentials, Credentials::Token(t) if t == "t0ken"));
    }

    #[test]
    fn a_bad_address_is_refused_without_repeating_it() {
        for text in ["http://ada:s3cret@bus", "nats://ada:s3cret@[bus"] {
            let error = text.parse::<BusAddress>().err().unwrap().to_string();
            assert!(error.contains("not a NATS server's address"), "{error}");
            assert!(!error.contains("s3cret"), "{error}");
        }
    }
}
