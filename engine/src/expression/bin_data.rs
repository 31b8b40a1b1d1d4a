//! `$convert` between strings and binData (MongoDB 8.0): the `format` argument (`base64`,
//! `base64url`, `hex`, `utf8`, `uuid`, and `auto` when writing a string) and the target's
//! `subtype`. Numeric ↔ binData conversions are not part of 8.0.

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use bson::spec::BinarySubtype;
use bson::{Binary, Bson};

use super::arithmetic::Num;
use crate::error::{Error, ErrorCode, Result};
use crate::value::display::{key_value, type_name};

/// How a binData's bytes are written as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Auto,
    Base64,
    Base64Url,
    Hex,
    Utf8,
    Uuid,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Base64 => "base64",
            Format::Base64Url => "base64url",
            Format::Hex => "hex",
            Format::Utf8 => "utf8",
            Format::Uuid => "uuid",
        }
    }
}

/// The evaluated `format` argument; `None` when absent or nullish.
pub(super) fn parse_format(v: &Option<Bson>) -> Result<Option<Format>> {
    let name = match v {
        None | Some(Bson::Null | Bson::Undefined) => return Ok(None),
        Some(Bson::String(s)) => s,
        Some(other) => {
            return Err(Error::location(
                4341114,
                format!(
                    "$convert requires that 'format' be a string, found: {} with value {}",
                    type_name(other),
                    key_value(other)
                ),
            ));
        }
    };
    [
        Format::Auto,
        Format::Base64,
        Format::Base64Url,
        Format::Hex,
        Format::Utf8,
        Format::Uuid,
    ]
    .into_iter()
    .find(|f| f.name() == name)
    .map(Some)
    .ok_or_else(|| {
        Error::location(
            4341125,
            format!("Invalid 'format' argument for $convert: {name}"),
        )
    })
}

/// The target's `subtype` (generic when absent): 0–8 or a user-defined 128–255.
pub(super) fn parse_subtype(v: Option<&Bson>) -> Result<BinarySubtype> {
    let Some(v) = v.filter(|v| !matches!(v, Bson::Null | Bson::Undefined)) else {
        return Ok(BinarySubtype::Generic);
    };
    let Some(n) = Num::from_bson(v) else {
        return Err(Error::location(
            4341108,
            format!(
                "For BinData, $convert's 'subtype' argument must be a number, but is {}",
                type_name(v)
            ),
        ));
    };
    let Some(code) = n.as_integral() else {
        return Err(Error::location(
            4341106,
            "In $convert, numeric 'subtype' argument is not an integer",
        ));
    };
    match u8::try_from(code) {
        Ok(c) if c <= 8 || c >= 128 => Ok(BinarySubtype::from(c)),
        _ => Err(Error::location(
            4341107,
            format!(
                "In $convert, numeric value for 'subtype' does not correspond to a BinData type: \
                 {code}"
            ),
        )),
    }
}

fn format_required(from: &str, to: &str) -> Error {
    Error::location(
        4341115,
        format!("Format must be speficied when converting from '{from}' to '{to}'"),
    )
}

/// A base64 engine that accepts text with or without padding.
fn base64_engine(url: bool) -> GeneralPurpose {
    let config = GeneralPurposeConfig::new()
        .with_encode_padding(!url)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent);
    GeneralPurpose::new(
        if url {
            &alphabet::URL_SAFE
        } else {
            &alphabet::STANDARD
        },
        config,
    )
}

/// A string converted to binData.
pub(super) fn from_string(s: &str, format: Option<Format>, subtype: BinarySubtype) -> Result<Bson> {
    let format = format.ok_or_else(|| format_required("string", "binData"))?;
    let failure = |reason: &str| {
        Error::new(
            ErrorCode::ConversionFailure,
            format!("Failed to parse BinData '{s}' in $convert with no onError value: {reason}"),
        )
    };
    if (format == Format::Uuid) != (subtype == BinarySubtype::Uuid) {
        return Err(failure(
            "Only the 'uuid' format is allowed with the UUID subtype",
        ));
    }
    let bytes = match format {
        Format::Base64 | Format::Base64Url => base64_engine(format == Format::Base64Url)
            .decode(s)
            .map_err(|_| failure("Invalid base64 string"))?,
        Format::Hex => decode_hex(s).ok_or_else(|| failure("Invalid hex string"))?,
        Format::Utf8 => s.as_bytes().to_vec(),
        Format::Uuid => parse_uuid(s)
            .ok_or_else(|| failure(&format!("Invalid UUID string: {s}")))?
            .to_vec(),
        Format::Auto => return Err(failure("Invalid format 'auto'")),
    };
    Ok(Bson::Binary(Binary { subtype, bytes }))
}

/// `$toUUID`: a UUID string as binData subtype 4.
pub(super) fn uuid_from_string(s: &str) -> Result<Bson> {
    let bytes = parse_uuid(s).ok_or_else(|| {
        Error::new(
            ErrorCode::ConversionFailure,
            format!(
                "Failed to parse BinData '{s}' in $convert with no onError value: Invalid UUID \
                 string: {s}"
            ),
        )
    })?;
    Ok(Bson::Binary(Binary {
        subtype: BinarySubtype::Uuid,
        bytes: bytes.to_vec(),
    }))
}

/// binData written as text in `format` (`auto`: a UUID's text for a 16-byte subtype-4 value,
/// base64 otherwise).
pub(super) fn to_string(b: &Binary, format: Option<Format>) -> Result<Bson> {
    let format = format.ok_or_else(|| format_required("binData", "string"))?;
    let uuid = (b.subtype == BinarySubtype::Uuid)
        .then(|| <[u8; 16]>::try_from(b.bytes.as_slice()).ok())
        .flatten();
    let failure = |reason: &str| {
        Error::new(
            ErrorCode::ConversionFailure,
            format!(
                "Failed to convert '{}' to string in $convert with no onError value: {reason}",
                key_value(&Bson::Binary(b.clone()))
            ),
        )
    };
    let text = match format {
        Format::Auto => match uuid {
            Some(u) => format_uuid(&u),
            None => base64_engine(false).encode(&b.bytes),
        },
        Format::Base64 => base64_engine(false).encode(&b.bytes),
        Format::Base64Url => base64_engine(true).encode(&b.bytes),
        Format::Hex => b.bytes.iter().map(|x| format!("{x:02X}")).collect(),
        Format::Utf8 => String::from_utf8(b.bytes.clone())
            .map_err(|_| failure("BinData does not represent a valid UTF-8 string"))?,
        Format::Uuid => {
            format_uuid(&uuid.ok_or_else(|| failure("BinData does not represent a valid UUID"))?)
        }
    };
    Ok(Bson::String(text))
}

/// binData to binData: only to its own subtype.
pub(super) fn to_bin_data(b: &Binary, subtype: BinarySubtype) -> Result<Bson> {
    if b.subtype != subtype {
        return Err(Error::new(
            ErrorCode::ConversionFailure,
            "Conversions between different BinData subtypes are not supported",
        ));
    }
    Ok(Bson::Binary(b.clone()))
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex digits of either case).
fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let b = s.as_bytes();
    if b.len() != 36 || [8, 13, 18, 23].iter().any(|i| b.get(*i) != Some(&b'-')) {
        return None;
    }
    let hex: String = s.chars().filter(|c| *c != '-').collect();
    <[u8; 16]>::try_from(decode_hex(&hex)?).ok()
}

fn format_uuid(u: &[u8; 16]) -> String {
    let hex: String = u.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_bin_data_round_trip() {
        let b = from_string(
            "4a6f686e20446f65",
            Some(Format::Hex),
            BinarySubtype::Generic,
        )
        .unwrap();
        let Bson::Binary(bin) = &b else {
            panic!("not binData: {b}")
        };
        assert_eq!(bin.bytes, b"John Doe");
        assert_eq!(
            to_string(bin, Some(Format::Base64)).unwrap(),
            Bson::String("Sm9obiBEb2U=".into())
        );
        assert_eq!(
            to_string(bin, Some(Format::Hex)).unwrap(),
            Bson::String("4A6F686E20446F65".into())
        );
        let u = uuid_from_string("123e4567-e89b-12d3-a456-426614174000").unwrap();
        let Bson::Binary(ub) = &u else {
            panic!("not binData: {u}")
        };
        assert_eq!(
            to_string(ub, Some(Format::Auto)).unwrap(),
            Bson::String("123e4567-e89b-12d3-a456-426614174000".into())
        );
        assert!(from_string("abc", Some(Format::Uuid), BinarySubtype::Generic).is_err());
        assert!(
            from_string(
                "UEdNb25nbyBpcyBHQSE",
                Some(Format::Base64Url),
                BinarySubtype::Generic
            )
            .is_ok()
        );
    }
}
