//! Which database a page (and, later, each embedded console) works on: a name, and whether it is
//! kept in IndexedDB or only in memory.
//!
//! The page's URL chooses: `?db=<name>` opens the named database (two names never share
//! records: each is its own IndexedDB database), `?storage=memory` keeps the data in memory only
//! (it never touches IndexedDB, is not shared with other pages, and is gone on reload). Without
//! either, the playground's own database [`DEFAULT_NAME`]. `index.html` hands the page's query
//! string to the shell worker's URL, so that the page and its worker read the same choice.

/// The playground's database when the URL names none.
pub const DEFAULT_NAME: &str = "playground";

/// The longest database name accepted.
pub const MAX_NAME_LEN: usize = 64;

/// Where a database's data lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Persistence {
    /// In IndexedDB, shared by every page of the origin that opens the same name.
    IndexedDb,
    /// In this page's memory only.
    Memory,
}

/// A database a page opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseChoice {
    pub name: String,
    pub persistence: Persistence,
}

impl Default for DatabaseChoice {
    fn default() -> Self {
        DatabaseChoice {
            name: DEFAULT_NAME.into(),
            persistence: Persistence::IndexedDb,
        }
    }
}

impl DatabaseChoice {
    /// The choice a URL query string (`?db=shop&storage=memory`, with or without the `?`)
    /// makes. A name that is not allowed is an error naming the rule.
    pub fn from_query(query: &str) -> Result<DatabaseChoice, String> {
        let mut choice = DatabaseChoice::default();
        for pair in query.trim_start_matches('?').split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(value);
            match key {
                "db" => {
                    check_name(&value)?;
                    choice.name = value;
                }
                "storage" => {
                    choice.persistence = match value.as_str() {
                        "memory" => Persistence::Memory,
                        "indexeddb" | "" => Persistence::IndexedDb,
                        other => {
                            return Err(format!(
                                "storage={other} is not a storage mode (use storage=memory)"
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(choice)
    }

    /// The IndexedDB database holding this database's records. The playground's keeps the name
    /// it has always had, so data stored before names existed is still found.
    pub fn indexed_db_name(&self) -> String {
        if self.name == DEFAULT_NAME {
            "sprout-playground".into()
        } else {
            format!("sprout-db.{}", self.name)
        }
    }

    /// The Web Lock whose holder owns the database's engine (see `shell_worker`).
    pub fn lock_name(&self) -> String {
        format!("sprout-owner:{}", self.indexed_db_name())
    }

    /// The `BroadcastChannel` over which the pages of this database talk.
    pub fn channel_name(&self) -> String {
        format!("sprout-channel:{}", self.indexed_db_name())
    }
}

/// Names are 1–64 characters of letters, digits, `_`, `-` and `.`: they become part of an
/// IndexedDB database name and of a URL, and must read the same everywhere.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("db= needs a database name".into());
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(format!(
            "the database name is longer than {MAX_NAME_LEN} characters"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(format!(
            "the database name may not contain {bad:?} (letters, digits, _ - . only)"
        ));
    }
    Ok(())
}

/// `%xx` escapes and `+` as a space, as a URL query writes them.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(high), Some(low)) => {
                        out.push((high * 16 + low) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_query_is_the_playground_in_indexeddb() {
        let c = DatabaseChoice::from_query("").unwrap();
        assert_eq!(c, DatabaseChoice::default());
        assert_eq!(c.indexed_db_name(), "sprout-playground");
    }

    #[test]
    fn a_named_database_has_its_own_indexeddb_database_lock_and_channel() {
        let shop = DatabaseChoice::from_query("?db=shop").unwrap();
        let blog = DatabaseChoice::from_query("lang=zh&db=blog").unwrap();
        assert_eq!(shop.name, "shop");
        assert_eq!(shop.indexed_db_name(), "sprout-db.shop");
        assert_ne!(shop.indexed_db_name(), blog.indexed_db_name());
        assert_ne!(shop.lock_name(), blog.lock_name());
        assert_ne!(shop.channel_name(), blog.channel_name());
        assert_ne!(
            shop.lock_name(),
            DatabaseChoice::default().lock_name(),
            "a name never shares the playground's owner"
        );
    }

    #[test]
    fn memory_mode_is_chosen_by_the_url() {
        let c = DatabaseChoice::from_query("?storage=memory&db=scratch").unwrap();
        assert_eq!(c.persistence, Persistence::Memory);
        assert_eq!(c.name, "scratch");
        assert!(DatabaseChoice::from_query("?storage=disk").is_err());
    }

    #[test]
    fn names_are_checked() {
        assert!(DatabaseChoice::from_query("?db=").is_err());
        assert!(DatabaseChoice::from_query("?db=a%2Fb").is_err());
        assert!(DatabaseChoice::from_query("?db=two+words").is_err());
        assert!(DatabaseChoice::from_query(&format!("?db={}", "x".repeat(65))).is_err());
        assert_eq!(
            DatabaseChoice::from_query("?db=course-1.unit_2")
                .unwrap()
                .name,
            "course-1.unit_2"
        );
        assert_eq!(
            DatabaseChoice::from_query("?db=%41b").unwrap().name,
            "Ab",
            "escapes are decoded before the check"
        );
    }
}
