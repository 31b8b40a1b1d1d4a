//! `$listLocalSessions`: the sessions in this server's session cache (`aggregate: 1` only).
//! `{}` lists the current user's sessions and `{allUsers: true}` every session; Sprout has no
//! authentication, so both list all of them, and `{users: [...]}` (named users, none of whom
//! owns an unauthenticated session) lists none.

use bson::{Bson, Document, doc};

use super::out::string_field;
use crate::error::{Error, ErrorCode, Result};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::type_name;

#[derive(Debug)]
pub struct ListLocalSessions {
    spec: Document,
    /// `users` was given: only sessions of those (authenticated) users.
    named_users: bool,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    if !cx.collectionless {
        return Err(Error::new(
            ErrorCode::InvalidNamespace,
            "$listLocalSessions must be run against the database with {aggregate: 1}, not a \
             collection",
        ));
    }
    let Bson::Document(spec) = arg else {
        return Err(Error::type_mismatch(format!(
            "$listLocalSessions options must be specified in an object, but found: {}",
            type_name(arg)
        )));
    };
    let mut named_users = false;
    for (k, v) in spec {
        match (k.as_str(), v) {
            ("allUsers", Bson::Boolean(_)) => {}
            ("allUsers", other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field '$listLocalSessions.allUsers' is the wrong type '{}', expected \
                     type 'bool'",
                    type_name(other)
                )));
            }
            ("users", Bson::Array(users)) => {
                for user in users {
                    let Bson::Document(u) = user else {
                        return Err(Error::type_mismatch(format!(
                            "BSON field '$listLocalSessions.users' is the wrong type '{}', \
                             expected type 'object'",
                            type_name(user)
                        )));
                    };
                    for field in ["user", "db"] {
                        match u.get(field) {
                            Some(v) => {
                                string_field("ListSessionsUser", field, v)?;
                            }
                            None => {
                                return Err(super::out::missing_field("ListSessionsUser", field));
                            }
                        }
                    }
                }
                named_users = true;
            }
            ("users", other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field '$listLocalSessions.users' is the wrong type '{}', expected type \
                     'array'",
                    type_name(other)
                )));
            }
            (other, _) => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '$listLocalSessions.{other}' is an unknown field."),
                ));
            }
        }
    }
    Ok(Box::new(ListLocalSessions {
        spec: spec.clone(),
        named_users,
    }))
}

impl Stage for ListLocalSessions {
    fn name(&self) -> &'static str {
        "$listLocalSessions"
    }

    fn is_source(&self) -> bool {
        true
    }

    fn apply(&self, _input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        if self.named_users {
            return Ok(Vec::new());
        }
        Ok(cx.sessions.records())
    }

    fn serialize(&self) -> Document {
        doc! {"$listLocalSessions": self.spec.clone()}
    }
}

#[cfg(test)]
mod tests {
    use bson::spec::BinarySubtype;
    use bson::{Binary, doc};

    use crate::Engine;
    use crate::pipeline::test_support::first_batch;

    #[test]
    fn lists_the_sessions_commands_named() {
        let mut e = Engine::new();
        let lsid = doc! {"id": Binary { subtype: BinarySubtype::Uuid, bytes: vec![1; 16] }};
        let list = doc! {"aggregate": 1, "pipeline": [{"$listLocalSessions": {}}], "cursor": {}};
        assert_eq!(first_batch(&e.run_command("t", &list)).len(), 0);
        let mut with_session = list.clone();
        with_session.insert("lsid", lsid);
        let sessions = first_batch(&e.run_command("t", &with_session));
        assert_eq!(sessions.len(), 1);
        assert!(sessions[0].get_document("_id").unwrap().contains_key("uid"));
        let named = doc! {"aggregate": 1, "pipeline": [{"$listLocalSessions": {"users": [{"user": "a", "db": "b"}]}}], "cursor": {}};
        assert_eq!(first_batch(&e.run_command("t", &named)).len(), 0);
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [{"$listLocalSessions": {}}], "cursor": {}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 73);
        let r = e.run_command(
            "t",
            &doc! {"aggregate": 1, "pipeline": [{"$listLocalSessions": {"x": 1}}], "cursor": {}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 40415);
    }
}
