//! The binaries' whole-number flags that have a least value and no greatest but their type's.
//! clap's own range check names its range, which then ends at the type's largest value
//! ("0 is not in 1..18446744073709551615"); this says "must be at least 1".

use std::fmt::Display;
use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;

/// The unsigned whole numbers a flag may be, with their largest value for the refusal of a
/// larger one.
pub trait Unsigned: FromStr<Err = ParseIntError> + PartialOrd + Display + Copy {
    const MAX: Self;
}

macro_rules! unsigned {
    ($($t:ty),*) => { $(impl Unsigned for $t { const MAX: Self = <$t>::MAX; })* };
}
unsigned!(u8, u16, u32, u64, usize);

/// A value parser (`#[arg(value_parser = at_least(1))]`) of a whole number of at least `least`.
pub fn at_least<T>(least: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: Unsigned + Send + Sync + 'static,
{
    move |text| match text.parse::<T>() {
        Ok(number) if number >= least => Ok(number),
        Ok(_) => Err(format!("must be at least {least}")),
        Err(error) if *error.kind() == IntErrorKind::PosOverflow => Err(format!(
            "{text} is more than this flag takes (at most {})",
            T::MAX
        )),
        Err(_) => Err(format!("expected a whole number, at least {least}")),
    }
}

#[cfg(test)]
mod tests {
    use super::at_least;

    #[test]
    fn a_number_below_the_least_or_no_number_is_refused_in_words() {
        let one = at_least(1u32);
        assert_eq!(one("1"), Ok(1));
        assert_eq!(one(" 7"), Err("expected a whole number, at least 1".into()));
        assert_eq!(one("4294967295"), Ok(u32::MAX));
        assert_eq!(one("0"), Err("must be at least 1".into()));
        for no_number in ["", "-1", "1.5", "x"] {
            assert_eq!(
                one(no_number),
                Err("expected a whole number, at least 1".into()),
                "{no_number:?}"
            );
        }
        assert_eq!(
            one("4294967296"),
            Err("4294967296 is more than this flag takes (at most 4294967295)".into())
        );
        assert_eq!(at_least(21usize)("20"), Err("must be at least 21".into()));
    }
}
