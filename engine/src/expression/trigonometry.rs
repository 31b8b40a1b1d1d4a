//! Trigonometry: `$sin $cos $tan $asin $acos $atan $atan2 $sinh $cosh $tanh $asinh $acosh
//! $atanh $degreesToRadians $radiansToDegrees`. Results are doubles, or decimals for a decimal
//! argument (computed in double precision). Bounded functions reject arguments outside their
//! domain with MongoDB's error 50989.

use bson::Bson;

use super::arithmetic::Num;
use super::math::{decimal_bson, decimal_from_double, float_result, nullish, show, single_number};
use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Vars};
use crate::error::{Error, Result};
use crate::value::display::type_name;

/// A function's domain: `(lower, upper, closed)`; `None` for the whole real line.
type Domain = Option<(f64, f64, bool)>;

macro_rules! trig {
    ($( $op:literal => $fn_name:ident, $f:expr, $domain:expr; )*) => {
        pub const OPERATORS: &[OperatorDef] = &[
            $( OperatorDef {
                name: $op,
                arity: Arity::Exactly(1),
                parse_args: positional,
                eval: $fn_name,
            }, )*
            OperatorDef {
                name: "$atan2",
                arity: Arity::Exactly(2),
                parse_args: positional,
                eval: atan2,
            },
        ];
        $(
            fn $fn_name(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
                apply($op, args, vars, $f, $domain)
            }
        )*
    };
}

const FINITE: Domain = Some((f64::NEG_INFINITY, f64::INFINITY, false));
const UNIT: Domain = Some((-1.0, 1.0, true));
const AT_LEAST_ONE: Domain = Some((1.0, f64::INFINITY, true));

trig! {
    "$sin" => sin, f64::sin, FINITE;
    "$cos" => cos, f64::cos, FINITE;
    "$tan" => tan, f64::tan, FINITE;
    "$asin" => asin, f64::asin, UNIT;
    "$acos" => acos, f64::acos, UNIT;
    "$atan" => atan, f64::atan, None;
    "$sinh" => sinh, f64::sinh, None;
    "$cosh" => cosh, f64::cosh, None;
    "$tanh" => tanh, f64::tanh, None;
    "$asinh" => asinh, f64::asinh, None;
    "$acosh" => acosh, f64::acosh, AT_LEAST_ONE;
    "$atanh" => atanh, f64::atanh, UNIT;
    "$degreesToRadians" => degrees_to_radians, f64::to_radians, None;
    "$radiansToDegrees" => radians_to_degrees, f64::to_degrees, None;
}

fn apply(
    name: &str,
    args: &[Expression],
    vars: &Vars<'_>,
    f: fn(f64) -> f64,
    domain: Domain,
) -> Result<Option<Bson>> {
    let Some(n) = single_number(name, args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    let x = n.as_f64();
    if x.is_nan() {
        return Ok(Some(n.into_bson()));
    }
    if let Some((lo, hi, closed)) = domain {
        let inside = if closed {
            lo <= x && x <= hi
        } else {
            lo < x && x < hi
        };
        if !inside {
            let (open, close) = if closed { ('[', ']') } else { ('(', ')') };
            return Err(Error::location(
                50989,
                format!(
                    "cannot apply {name} to {}, value must in {open}{},{}{close}",
                    shown_argument(n),
                    show(lo),
                    show(hi)
                ),
            ));
        }
    }
    Ok(Some(float_result(n, f(x))))
}

/// The argument as the error message shows it (decimals in their own notation).
fn shown_argument(n: Num) -> String {
    match n {
        Num::Decimal(d) => d.to_decimal128().to_string(),
        other => show(other.as_f64()),
    }
}

fn atan2(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut nums = [Num::Int(0); 2];
    for (i, code) in [(0, 51044), (1, 51045)] {
        let v = arg(args, i, vars)?;
        if nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        let Some(n) = v.as_ref().and_then(Num::from_bson) else {
            return Err(Error::location(
                code,
                format!(
                    "$atan2 only supports numeric types, not {}",
                    v.as_ref().map_or("missing", type_name)
                ),
            ));
        };
        if let Some(slot) = nums.get_mut(i) {
            *slot = n;
        }
    }
    let [y, x] = nums;
    let r = y.as_f64().atan2(x.as_f64());
    Ok(Some(match (y, x) {
        (Num::Decimal(_), _) | (_, Num::Decimal(_)) => decimal_bson(decimal_from_double(r)),
        _ => Bson::Double(r),
    }))
}
