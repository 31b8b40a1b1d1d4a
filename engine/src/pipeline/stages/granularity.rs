//! `$bucketAuto`'s `granularity`: bucket boundaries rounded to a preferred number series
//! (Renard R5–R80, 1-2-5, E6–E192; the tables are the series' published values) or to powers of
//! two. Rounding up gives the smallest series value strictly above the number, rounding down the
//! largest strictly below; zero stays zero. Decimal inputs are rounded in double precision.

use bson::Bson;

use crate::error::{Error, Result};
use crate::value::display::type_name;

const R5: &[f64] = &[10., 16., 25., 40., 63.];
const R10: &[f64] = &[100., 125., 160., 200., 250., 315., 400., 500., 630., 800.];
const R20: &[f64] = &[
    100., 112., 125., 140., 160., 180., 200., 224., 250., 280., 315., 355., 400., 450., 500., 560.,
    630., 710., 800., 900.,
];
const R40: &[f64] = &[
    100., 106., 112., 118., 125., 132., 140., 150., 160., 170., 180., 190., 200., 212., 224., 236.,
    250., 265., 280., 300., 315., 355., 375., 400., 425., 450., 475., 500., 530., 560., 600., 630.,
    670., 710., 750., 800., 850., 900., 950.,
];
const R80: &[f64] = &[
    103., 109., 115., 122., 128., 136., 145., 155., 165., 175., 185., 195., 206., 218., 230., 243.,
    258., 272., 290., 307., 325., 345., 365., 387., 412., 437., 462., 487., 515., 545., 575., 615.,
    650., 690., 730., 775., 825., 875., 925., 975.,
];
const S125: &[f64] = &[10., 20., 50.];
const E6: &[f64] = &[10., 15., 22., 33., 47., 68.];
const E12: &[f64] = &[10., 12., 15., 18., 22., 27., 33., 39., 47., 56., 68., 82.];
const E24: &[f64] = &[
    10., 11., 12., 13., 15., 16., 18., 20., 22., 24., 27., 30., 33., 36., 39., 43., 47., 51., 56.,
    62., 68., 75., 82., 91.,
];
const E48: &[f64] = &[
    100., 105., 110., 115., 121., 127., 133., 140., 147., 154., 162., 169., 178., 187., 196., 205.,
    215., 226., 237., 249., 261., 274., 287., 301., 316., 332., 348., 365., 383., 402., 422., 442.,
    464., 487., 511., 536., 562., 590., 619., 649., 681., 715., 750., 787., 825., 866., 909., 953.,
];
const E96: &[f64] = &[
    100., 102., 105., 107., 110., 113., 115., 118., 121., 124., 127., 130., 133., 137., 140., 143.,
    147., 150., 154., 158., 162., 165., 169., 174., 178., 182., 187., 191., 196., 200., 205., 210.,
    215., 221., 226., 232., 237., 243., 249., 255., 261., 267., 274., 280., 287., 294., 301., 309.,
    316., 324., 332., 340., 348., 357., 365., 374., 383., 392., 402., 412., 422., 432., 442., 453.,
    464., 475., 487., 499., 511., 523., 536., 549., 562., 576., 590., 604., 619., 634., 649., 665.,
    681., 698., 715., 732., 750., 768., 787., 806., 825., 845., 866., 887., 909., 931., 953., 976.,
];
const E192: &[f64] = &[
    100., 101., 102., 104., 105., 106., 107., 109., 110., 111., 113., 114., 115., 117., 118., 120.,
    121., 123., 124., 126., 127., 129., 130., 132., 133., 135., 137., 138., 140., 142., 143., 145.,
    147., 149., 150., 152., 154., 156., 158., 160., 162., 164., 165., 167., 169., 172., 174., 176.,
    178., 180., 182., 184., 187., 189., 191., 193., 196., 198., 200., 203., 205., 208., 210., 213.,
    215., 218., 221., 223., 226., 229., 232., 234., 237., 240., 243., 246., 249., 252., 255., 258.,
    261., 264., 267., 271., 274., 277., 280., 284., 287., 291., 294., 298., 301., 305., 309., 312.,
    316., 320., 324., 328., 332., 336., 340., 344., 348., 352., 357., 361., 365., 370., 374., 379.,
    383., 388., 392., 397., 402., 407., 412., 417., 422., 427., 432., 437., 442., 448., 453., 459.,
    464., 470., 475., 481., 487., 493., 499., 505., 511., 517., 523., 530., 536., 542., 549., 556.,
    562., 569., 576., 583., 590., 597., 604., 612., 619., 626., 634., 642., 649., 657., 665., 673.,
    681., 690., 698., 706., 715., 723., 732., 741., 750., 759., 768., 777., 787., 796., 806., 816.,
    825., 835., 845., 856., 866., 876., 887., 898., 909., 920., 931., 942., 953., 965., 976., 988.,
];

/// A granularity: a preferred number series (its values scale by powers of ten) or powers of 2.
#[derive(Debug, Clone)]
pub enum Granularity {
    Series {
        name: &'static str,
        base: &'static [f64],
    },
    PowersOfTwo,
}

impl Granularity {
    pub fn parse(name: &str) -> Result<Granularity> {
        const SERIES: &[(&str, &[f64])] = &[
            ("R5", R5),
            ("R10", R10),
            ("R20", R20),
            ("R40", R40),
            ("R80", R80),
            ("1-2-5", S125),
            ("E6", E6),
            ("E12", E12),
            ("E24", E24),
            ("E48", E48),
            ("E96", E96),
            ("E192", E192),
        ];
        if name == "POWERSOF2" {
            return Ok(Granularity::PowersOfTwo);
        }
        SERIES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(name, base)| Granularity::Series { name, base })
            .ok_or_else(|| Error::location(40257, format!("Unknown rounding granularity '{name}'")))
    }

    pub fn name(&self) -> &'static str {
        match self {
            Granularity::Series { name, .. } => name,
            Granularity::PowersOfTwo => "POWERSOF2",
        }
    }

    /// The smallest granularity value strictly above `v` (zero stays zero).
    pub fn round_up(&self, v: &Bson) -> Result<Bson> {
        let x = non_negative(v)?;
        if x == 0.0 {
            return Ok(v.clone());
        }
        Ok(match self {
            Granularity::Series { base, .. } => Bson::Double(series_up(base, x)),
            Granularity::PowersOfTwo => power_of_two(v, x, true),
        })
    }

    /// The largest granularity value strictly below `v` (zero stays zero).
    pub fn round_down(&self, v: &Bson) -> Result<Bson> {
        let x = non_negative(v)?;
        if x == 0.0 {
            return Ok(v.clone());
        }
        Ok(match self {
            Granularity::Series { base, .. } => Bson::Double(series_down(base, x)),
            Granularity::PowersOfTwo => power_of_two(v, x, false),
        })
    }
}

fn non_negative(v: &Bson) -> Result<f64> {
    let Some(x) = crate::accumulator::sum::as_f64(v) else {
        return Err(Error::location(
            40262,
            format!(
                "A granularity rounder can only round numeric values, but found type: {}",
                type_name(v)
            ),
        ));
    };
    if x.is_nan() {
        return Err(Error::location(
            40263,
            "A granularity rounder cannot round NaN",
        ));
    }
    if x < 0.0 {
        return Err(Error::location(
            40268,
            "A granularity rounder can only round non-negative numbers",
        ));
    }
    Ok(x)
}

fn series_up(base: &[f64], x: f64) -> f64 {
    let (first, last) = (base[0], base[base.len() - 1]);
    let mut m = 1.0;
    while x >= last * m {
        m *= 10.0;
    }
    while x < first * m {
        let previous_min = first * m;
        m /= 10.0;
        if x >= last * m {
            return previous_min;
        }
    }
    base.iter()
        .map(|s| s * m)
        .find(|s| x < *s)
        .unwrap_or(last * m)
}

fn series_down(base: &[f64], x: f64) -> f64 {
    let (first, last) = (base[0], base[base.len() - 1]);
    let mut m = 1.0;
    while x <= first * m {
        m /= 10.0;
    }
    while x > last * m {
        let previous_max = last * m;
        m *= 10.0;
        if x <= first * m {
            return previous_max;
        }
    }
    base.iter()
        .map(|s| s * m)
        .take_while(|s| *s < x)
        .last()
        .unwrap_or(first * m)
}

/// Powers of two: integers give integers (int while it fits, else long), doubles as `$pow(2, e)`
/// gives them.
fn power_of_two(v: &Bson, x: f64, up: bool) -> Bson {
    let exact = x.log2();
    let is_power = exact.fract() == 0.0;
    let e = match (up, is_power) {
        (true, _) => exact.floor() + 1.0,
        (false, true) => exact - 1.0,
        (false, false) => exact.floor(),
    };
    if e < 0.0 || matches!(v, Bson::Decimal128(_)) {
        return Bson::Double(e.exp2());
    }
    let p = 1i128 << (e as u32).min(100);
    match i32::try_from(p) {
        Ok(i) => Bson::Int32(i),
        Err(_) => i64::try_from(p).map_or(Bson::Double(e.exp2()), Bson::Int64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferred_numbers() {
        let r = |g: &str, v: f64| {
            let g = Granularity::parse(g).unwrap();
            (
                g.round_up(&Bson::Double(v)).unwrap(),
                g.round_down(&Bson::Double(v)).unwrap(),
            )
        };
        assert_eq!(r("R5", 20.0), (Bson::Double(25.0), Bson::Double(16.0)));
        assert_eq!(r("1-2-5", 2.0), (Bson::Double(5.0), Bson::Double(1.0)));
        assert_eq!(r("E6", 0.8), (Bson::Double(1.0), Bson::Double(0.68)));
        assert_eq!(r("R5", 0.0), (Bson::Double(0.0), Bson::Double(0.0)));
        let p = Granularity::parse("POWERSOF2").unwrap();
        assert_eq!(p.round_up(&Bson::Int32(4)).unwrap(), Bson::Int32(8));
        assert_eq!(p.round_down(&Bson::Int32(4)).unwrap(), Bson::Int32(2));
        assert_eq!(p.round_down(&Bson::Int32(5)).unwrap(), Bson::Int32(4));
        assert_eq!(Granularity::parse("X").unwrap_err().code(), 40257);
        assert_eq!(
            Granularity::parse("R5")
                .unwrap()
                .round_up(&Bson::Int32(-1))
                .unwrap_err()
                .code(),
            40268
        );
    }
}
