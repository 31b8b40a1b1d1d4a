//! The proleptic Gregorian calendar over the whole range of BSON dates (i64 milliseconds, far
//! beyond the years 0-9999 that date crates cover): day counts ↔ year/month/day with Howard
//! Hinnant's `days_from_civil` algorithms, and the week numberings MongoDB exposes.

pub const MILLIS_PER_DAY: i64 = 86_400_000;

/// A date and time of day in one time zone's wall clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    pub millisecond: i64,
    /// Days since 1970-01-01.
    pub days: i64,
}

impl Civil {
    /// The wall-clock reading of `millis` (milliseconds since the epoch, already shifted by
    /// the zone's offset).
    pub fn from_millis(millis: i64) -> Civil {
        let days = millis.div_euclid(MILLIS_PER_DAY);
        let ms = millis.rem_euclid(MILLIS_PER_DAY);
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: ms / 3_600_000,
            minute: ms / 60_000 % 60,
            second: ms / 1000 % 60,
            millisecond: ms % 1000,
            days,
        }
    }

    /// 1 (January 1st) to 366.
    pub fn day_of_year(&self) -> i64 {
        self.days - days_from_civil(self.year, 1, 1) + 1
    }

    /// 1 (Sunday) to 7 (Saturday), as `$dayOfWeek`.
    pub fn day_of_week(&self) -> i64 {
        // 1970-01-01 was a Thursday (5).
        (self.days + 4).rem_euclid(7) + 1
    }

    /// 1 (Monday) to 7 (Sunday), as `$isoDayOfWeek`.
    pub fn iso_day_of_week(&self) -> i64 {
        (self.days + 3).rem_euclid(7) + 1
    }

    /// `$week` (strftime's `%U`): weeks start on Sunday; days before the year's first Sunday are
    /// in week 0.
    pub fn week(&self) -> i64 {
        (self.day_of_year() - 1 + 7 - (self.day_of_week() - 1)) / 7
    }

    /// The ISO 8601 week-numbering year and week (1 to 53): a week belongs to the year of its
    /// Thursday.
    pub fn iso_week(&self) -> (i64, i64) {
        let thursday = self.days - (self.iso_day_of_week() - 1) + 3;
        let (year, _, _) = civil_from_days(thursday);
        let week = (thursday - days_from_civil(year, 1, 1)) / 7 + 1;
        (year, week)
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (`month` 1-12; `day` may run past the
/// month's end, which carries into the next months).
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The year, month (1-12) and day of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

pub fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

pub fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_known_dates() {
        for days in [
            -1_000_000_000i64,
            -719_468,
            -1,
            0,
            1,
            11_016,
            2_932_896,
            1 << 36,
        ] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(-719_528), (0, 1, 1));
        // 2014-01-01T08:15:39.736Z, the manual's example.
        let c = Civil::from_millis(1_388_564_139_736);
        assert_eq!((c.year, c.month, c.day, c.hour), (2014, 1, 1, 8));
        assert_eq!((c.minute, c.second, c.millisecond), (15, 39, 736));
        assert_eq!(c.day_of_year(), 1);
        assert_eq!(c.day_of_week(), 4);
        assert_eq!(c.week(), 0);
        assert_eq!(c.iso_week(), (2014, 1));
        assert_eq!(c.iso_day_of_week(), 3);
    }

    #[test]
    fn iso_weeks_at_year_edges() {
        let at = |y, m, d| Civil::from_millis(days_from_civil(y, m, d) * MILLIS_PER_DAY);
        assert_eq!(at(2016, 1, 1).iso_week(), (2015, 53));
        assert_eq!(at(2008, 12, 29).iso_week(), (2009, 1));
        assert_eq!(at(2021, 1, 3).week(), 1);
        assert_eq!(at(2021, 1, 2).week(), 0);
    }

    #[test]
    fn extreme_millis_do_not_overflow() {
        for ms in [i64::MIN, i64::MAX] {
            let c = Civil::from_millis(ms);
            let _ = (c.iso_week(), c.week(), c.day_of_year());
        }
    }
}
