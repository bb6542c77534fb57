//! Where a hall answers: one server's address, or the addresses of several nodes of one hall
//! (`ws://a:7878,ws://b:7878`), tried in turn when a connection is lost.

/// The addresses, and the one tried next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Addresses {
    list: Vec<String>,
    current: usize,
}

impl Addresses {
    /// The addresses in `text`, separated by commas (spaces around them ignored, empty ones
    /// dropped); `text` itself when it names none, so that the error names what was given.
    pub fn parse(text: &str) -> Addresses {
        let mut list: Vec<String> = (text.split(','))
            .map(str::trim)
            .filter(|address| !address.is_empty())
            .map(String::from)
            .collect();
        if list.is_empty() {
            list.push(text.to_string());
        }
        Addresses { list, current: 0 }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The address to try now.
    pub fn current(&self) -> &str {
        &self.list[self.current]
    }

    /// Moves on to the next address, after the last back to the first.
    pub fn advance(&mut self) {
        self.current = (self.current + 1) % self.list.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_addresses_are_tried_in_turn_and_around() {
        let mut addresses = Addresses::parse("ws://a:1, ws://b:2,,ws://c:3 ");
        assert_eq!(addresses.len(), 3);
        let mut seen = Vec::new();
        for _ in 0..4 {
            seen.push(addresses.current().to_string());
            addresses.advance();
        }
        assert_eq!(seen, ["ws://a:1", "ws://b:2", "ws://c:3", "ws://a:1"]);
    }

    #[test]
    fn one_address_stays_and_nothing_given_is_kept_for_the_error() {
        let mut one = Addresses::parse("ws://a:1");
        one.advance();
        assert_eq!((one.len(), one.current()), (1, "ws://a:1"));
        assert_eq!(Addresses::parse(" , ").current(), " , ");
    }
}
