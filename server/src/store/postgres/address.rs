//! A PostgreSQL address as messages and logs show it: rebuilt from what was parsed, so its
//! password never shows, whichever form it came in (a URL's `user:password@`, its
//! `?password=`, or `key=value` pairs), and `:…` marks it only where there is one.

use tokio_postgres::Config;
use tokio_postgres::config::Host;

/// `postgres://user:…@host:port/database`, with the parts `config` holds.
pub(super) fn shown(config: &Config) -> String {
    let user = config.get_user().unwrap_or("");
    let password = match config.get_password() {
        Some(_) => ":…",
        None => "",
    };
    let credentials = match user.is_empty() && password.is_empty() {
        true => String::new(),
        false => format!("{user}{password}@"),
    };
    let names: Vec<String> = match config.get_hosts() {
        [] => (config.get_hostaddrs().iter())
            .map(|address| address.to_string())
            .collect(),
        hosts => hosts
            .iter()
            .map(|host| match host {
                Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                Host::Unix(folder) => folder.display().to_string(),
            })
            .collect(),
    };
    let ports = config.get_ports();
    let hosts: Vec<String> = (names.iter().enumerate())
        .map(|(at, name)| {
            let name = match name.contains(':') {
                true => format!("[{name}]"),
                false => name.clone(),
            };
            // One port serves every host; else each host has its own.
            match ports.get(at).or(ports.first().filter(|_| ports.len() == 1)) {
                Some(port) => format!("{name}:{port}"),
                None => name,
            }
        })
        .collect();
    let database = config
        .get_dbname()
        .map(|name| format!("/{name}"))
        .unwrap_or_default();
    format!("postgres://{credentials}{}{database}", hosts.join(","))
}

#[cfg(test)]
mod tests {
    use super::shown;

    fn shown_of(address: &str) -> String {
        shown(&address.parse().unwrap())
    }

    #[test]
    fn an_address_shows_what_it_names_and_no_password() {
        for (address, expected) in [
            (
                "postgres://parlor@db:5432/hall",
                "postgres://parlor@db:5432/hall",
            ),
            (
                "postgres://parlor:pw@db/hall",
                "postgres://parlor:…@db:5432/hall",
            ),
            ("postgres://:pw@db", "postgres://:…@db:5432"),
            ("postgres://db1,db2:6000", "postgres://db1:5432,db2:6000"),
            ("postgres://[::1]:7/x", "postgres://[::1]:7/x"),
            (
                "host=a,b port=9 user=u password=p",
                "postgres://u:…@a:9,b:9",
            ),
            ("hostaddr=10.0.0.1 dbname=h", "postgres://10.0.0.1/h"),
            (
                "host=/run/postgresql user=u",
                "postgres://u@/run/postgresql",
            ),
        ] {
            assert_eq!(shown_of(address), expected, "{address}");
        }
    }
}
