//! MongoDB-shaped errors: a numeric code, its codeName, and a message.
//!
//! Every error the engine returns to a user is an [`Error`]; nothing user-reachable panics.
//! Codes and names follow MongoDB's `error_codes.yml`.

use std::fmt;

/// The error codes Sprout produces, with MongoDB's numbers and names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    InternalError,
    BadValue,
    FailedToParse,
    TypeMismatch,
    InvalidLength,
    NamespaceNotFound,
    IndexNotFound,
    /// A dropIndex key pattern that matches more than one index (181).
    AmbiguousIndexKeyPattern,
    InvalidNamespace,
    NamespaceExists,
    IllegalOperation,
    ImmutableField,
    ConflictingUpdateOperators,
    CommandNotFound,
    InvalidOptions,
    InvalidIdField,
    DuplicateKey,
    DollarPrefixedFieldName,
    PathNotViable,
    Overflow,
    /// `$convert` could not convert a value (what `onError` catches).
    ConversionFailure,
    NotSingleValueField,
    EmptyFieldName,
    NotExactValueField,
    NotImplemented,
    DocumentValidationFailure,
    IncompatibleCollationVersion,
    CommandNotSupportedOnView,
    OptionNotSupportedOnView,
    ViewDepthLimitExceeded,
    /// A view definition that would make a view depend on itself (5).
    GraphContainsCycle,
    /// A database whose name differs only in case from an existing one's (13297).
    DatabaseDifferCase,
    QueryFeatureNotAllowed,
    CannotCreateIndex,
    IndexOptionsConflict,
    IndexKeySpecsConflict,
    CannotIndexParallelArrays,
    InvalidIndexSpecificationOption,
    /// A document an index cannot make keys for (201): an array in a text index's other field.
    CannotBuildIndexKeys,
    NoQueryExecutionPlans,
    QueryExceededMemoryLimitNoDiskUseAllowed,
    JSInterpreterFailure,
    ExceededMemoryLimit,
    /// `$merge` with `whenNotMatched: "fail"` met a result with no match.
    MergeStageNoMatchingDocument,
    /// A `$lookup`, `$unionWith` or `$graphLookup` nested deeper than 20 sub-pipelines.
    MaxSubPipelineDepthExceeded,
    /// Replica-set codes (replication/).
    InvalidReplicaSetConfig,
    NotWritablePrimary,
    UnsatisfiableWriteConcern,
    NoReplicationEnabled,
    NotYetInitialized,
    AlreadyInitialized,
    NewReplicaSetConfigurationIncompatible,
    ExceededTimeLimit,
    NotPrimaryOrSecondary,
    NodeNotFound,
    WriteConcernTimeout,
    UnknownReplWriteConcern,
    FailedToSatisfyReadPreference,
    MaxStalenessOutOfRange,
    /// `maxTimeMS` ran out (a linearizable read waiting for a majority).
    MaxTimeMSExpired,
    /// A replica-set-only read concern (`linearizable`, `snapshot`) on a standalone server.
    NotAReplicaSet,
    /// A linearizable read whose no-op write could not be confirmed by a majority.
    LinearizableReadConcernError,
    /// A cursor's collection was dropped under it (the next `getMore` fails).
    QueryPlanKilled,
    /// A scan of a capped collection whose position was deleted (overwritten) under it.
    CappedPositionLost,
    /// Sharding codes (sharding/).
    ShardKeyNotFound,
    ShardNotFound,
    NamespaceNotSharded,
    OperationFailed,
    /// A command option the server does not support (mapReduce's output to an internal
    /// database).
    CommandNotSupported,
    Location(i32),
}

impl ErrorCode {
    /// Every named code (all but `Location`), for mapping numbers back to names.
    pub const NAMED: &'static [ErrorCode] = &[
        ErrorCode::InternalError,
        ErrorCode::BadValue,
        ErrorCode::FailedToParse,
        ErrorCode::TypeMismatch,
        ErrorCode::InvalidLength,
        ErrorCode::NamespaceNotFound,
        ErrorCode::IndexNotFound,
        ErrorCode::AmbiguousIndexKeyPattern,
        ErrorCode::InvalidNamespace,
        ErrorCode::NamespaceExists,
        ErrorCode::IllegalOperation,
        ErrorCode::ImmutableField,
        ErrorCode::ConflictingUpdateOperators,
        ErrorCode::CommandNotFound,
        ErrorCode::InvalidOptions,
        ErrorCode::InvalidIdField,
        ErrorCode::DuplicateKey,
        ErrorCode::DollarPrefixedFieldName,
        ErrorCode::PathNotViable,
        ErrorCode::Overflow,
        ErrorCode::ConversionFailure,
        ErrorCode::NotSingleValueField,
        ErrorCode::EmptyFieldName,
        ErrorCode::NotExactValueField,
        ErrorCode::NotImplemented,
        ErrorCode::DocumentValidationFailure,
        ErrorCode::IncompatibleCollationVersion,
        ErrorCode::CommandNotSupportedOnView,
        ErrorCode::OptionNotSupportedOnView,
        ErrorCode::ViewDepthLimitExceeded,
        ErrorCode::GraphContainsCycle,
        ErrorCode::DatabaseDifferCase,
        ErrorCode::QueryFeatureNotAllowed,
        ErrorCode::CannotCreateIndex,
        ErrorCode::IndexOptionsConflict,
        ErrorCode::IndexKeySpecsConflict,
        ErrorCode::CannotIndexParallelArrays,
        ErrorCode::InvalidIndexSpecificationOption,
        ErrorCode::CannotBuildIndexKeys,
        ErrorCode::NoQueryExecutionPlans,
        ErrorCode::QueryExceededMemoryLimitNoDiskUseAllowed,
        ErrorCode::JSInterpreterFailure,
        ErrorCode::ExceededMemoryLimit,
        ErrorCode::MergeStageNoMatchingDocument,
        ErrorCode::MaxSubPipelineDepthExceeded,
        ErrorCode::InvalidReplicaSetConfig,
        ErrorCode::NotWritablePrimary,
        ErrorCode::UnsatisfiableWriteConcern,
        ErrorCode::NoReplicationEnabled,
        ErrorCode::NotYetInitialized,
        ErrorCode::AlreadyInitialized,
        ErrorCode::NewReplicaSetConfigurationIncompatible,
        ErrorCode::ExceededTimeLimit,
        ErrorCode::NotPrimaryOrSecondary,
        ErrorCode::NodeNotFound,
        ErrorCode::WriteConcernTimeout,
        ErrorCode::UnknownReplWriteConcern,
        ErrorCode::FailedToSatisfyReadPreference,
        ErrorCode::MaxStalenessOutOfRange,
        ErrorCode::MaxTimeMSExpired,
        ErrorCode::NotAReplicaSet,
        ErrorCode::LinearizableReadConcernError,
        ErrorCode::QueryPlanKilled,
        ErrorCode::CappedPositionLost,
        ErrorCode::ShardKeyNotFound,
        ErrorCode::ShardNotFound,
        ErrorCode::NamespaceNotSharded,
        ErrorCode::OperationFailed,
        ErrorCode::CommandNotSupported,
    ];

    /// The code with this number: a named one where MongoDB names it, else `Location(n)`.
    pub fn from_code(code: i32) -> ErrorCode {
        ErrorCode::NAMED
            .iter()
            .copied()
            .find(|c| c.code() == code)
            .unwrap_or(ErrorCode::Location(code))
    }

    pub fn code(self) -> i32 {
        match self {
            ErrorCode::InternalError => 1,
            ErrorCode::BadValue => 2,
            ErrorCode::FailedToParse => 9,
            ErrorCode::TypeMismatch => 14,
            ErrorCode::InvalidLength => 16,
            ErrorCode::NamespaceNotFound => 26,
            ErrorCode::IndexNotFound => 27,
            ErrorCode::AmbiguousIndexKeyPattern => 181,
            ErrorCode::ConflictingUpdateOperators => 40,
            ErrorCode::CommandNotFound => 59,
            ErrorCode::ImmutableField => 66,
            ErrorCode::InvalidOptions => 72,
            ErrorCode::InvalidNamespace => 73,
            ErrorCode::NamespaceExists => 48,
            ErrorCode::IllegalOperation => 20,
            ErrorCode::InvalidIdField => 53,
            ErrorCode::DuplicateKey => 11000,
            ErrorCode::DollarPrefixedFieldName => 52,
            ErrorCode::PathNotViable => 28,
            ErrorCode::Overflow => 15,
            ErrorCode::ConversionFailure => 241,
            ErrorCode::NotSingleValueField => 54,
            ErrorCode::EmptyFieldName => 56,
            ErrorCode::NotExactValueField => 111,
            ErrorCode::NotImplemented => 238,
            ErrorCode::DocumentValidationFailure => 121,
            ErrorCode::IncompatibleCollationVersion => 161,
            ErrorCode::CommandNotSupportedOnView => 166,
            ErrorCode::OptionNotSupportedOnView => 167,
            ErrorCode::ViewDepthLimitExceeded => 165,
            ErrorCode::GraphContainsCycle => 5,
            ErrorCode::DatabaseDifferCase => 13297,
            ErrorCode::QueryFeatureNotAllowed => 224,
            ErrorCode::CannotCreateIndex => 67,
            ErrorCode::CannotBuildIndexKeys => 201,
            ErrorCode::IndexOptionsConflict => 85,
            ErrorCode::IndexKeySpecsConflict => 86,
            ErrorCode::CannotIndexParallelArrays => 171,
            ErrorCode::InvalidIndexSpecificationOption => 197,
            ErrorCode::NoQueryExecutionPlans => 291,
            ErrorCode::QueryExceededMemoryLimitNoDiskUseAllowed => 292,
            ErrorCode::JSInterpreterFailure => 139,
            ErrorCode::ExceededMemoryLimit => 146,
            ErrorCode::MergeStageNoMatchingDocument => 13113,
            ErrorCode::MaxSubPipelineDepthExceeded => 232,
            ErrorCode::InvalidReplicaSetConfig => 93,
            ErrorCode::NotWritablePrimary => 10107,
            ErrorCode::UnsatisfiableWriteConcern => 100,
            ErrorCode::NoReplicationEnabled => 76,
            ErrorCode::NotYetInitialized => 94,
            ErrorCode::AlreadyInitialized => 23,
            ErrorCode::NewReplicaSetConfigurationIncompatible => 103,
            ErrorCode::ExceededTimeLimit => 262,
            ErrorCode::NotPrimaryOrSecondary => 13436,
            ErrorCode::NodeNotFound => 74,
            ErrorCode::WriteConcernTimeout => 64,
            ErrorCode::UnknownReplWriteConcern => 79,
            ErrorCode::FailedToSatisfyReadPreference => 133,
            ErrorCode::MaxStalenessOutOfRange => 160,
            ErrorCode::MaxTimeMSExpired => 50,
            ErrorCode::NotAReplicaSet => 123,
            ErrorCode::LinearizableReadConcernError => 187,
            ErrorCode::QueryPlanKilled => 175,
            ErrorCode::CappedPositionLost => 136,
            ErrorCode::ShardKeyNotFound => 61,
            ErrorCode::ShardNotFound => 70,
            ErrorCode::NamespaceNotSharded => 118,
            ErrorCode::OperationFailed => 96,
            ErrorCode::CommandNotSupported => 115,
            ErrorCode::Location(n) => n,
        }
    }

    /// MongoDB's `codeName`. Numbered "Location" errors have the name `Location<code>`.
    pub fn name(self) -> String {
        let s = match self {
            ErrorCode::InternalError => "InternalError",
            ErrorCode::BadValue => "BadValue",
            ErrorCode::FailedToParse => "FailedToParse",
            ErrorCode::TypeMismatch => "TypeMismatch",
            ErrorCode::InvalidLength => "InvalidLength",
            ErrorCode::NamespaceNotFound => "NamespaceNotFound",
            ErrorCode::IndexNotFound => "IndexNotFound",
            ErrorCode::AmbiguousIndexKeyPattern => "AmbiguousIndexKeyPattern",
            ErrorCode::ConflictingUpdateOperators => "ConflictingUpdateOperators",
            ErrorCode::CommandNotFound => "CommandNotFound",
            ErrorCode::ImmutableField => "ImmutableField",
            ErrorCode::InvalidOptions => "InvalidOptions",
            ErrorCode::InvalidNamespace => "InvalidNamespace",
            ErrorCode::NamespaceExists => "NamespaceExists",
            ErrorCode::IllegalOperation => "IllegalOperation",
            ErrorCode::InvalidIdField => "InvalidIdField",
            ErrorCode::DuplicateKey => "DuplicateKey",
            ErrorCode::DollarPrefixedFieldName => "DollarPrefixedFieldName",
            ErrorCode::PathNotViable => "PathNotViable",
            ErrorCode::Overflow => "Overflow",
            ErrorCode::ConversionFailure => "ConversionFailure",
            ErrorCode::NotSingleValueField => "NotSingleValueField",
            ErrorCode::EmptyFieldName => "EmptyFieldName",
            ErrorCode::NotExactValueField => "NotExactValueField",
            ErrorCode::NotImplemented => "NotImplemented",
            ErrorCode::DocumentValidationFailure => "DocumentValidationFailure",
            ErrorCode::IncompatibleCollationVersion => "IncompatibleCollationVersion",
            ErrorCode::CommandNotSupportedOnView => "CommandNotSupportedOnView",
            ErrorCode::OptionNotSupportedOnView => "OptionNotSupportedOnView",
            ErrorCode::ViewDepthLimitExceeded => "ViewDepthLimitExceeded",
            ErrorCode::GraphContainsCycle => "GraphContainsCycle",
            ErrorCode::DatabaseDifferCase => "DatabaseDifferCase",
            ErrorCode::QueryFeatureNotAllowed => "QueryFeatureNotAllowed",
            ErrorCode::CannotCreateIndex => "CannotCreateIndex",
            ErrorCode::CannotBuildIndexKeys => "CannotBuildIndexKeys",
            ErrorCode::IndexOptionsConflict => "IndexOptionsConflict",
            ErrorCode::IndexKeySpecsConflict => "IndexKeySpecsConflict",
            ErrorCode::CannotIndexParallelArrays => "CannotIndexParallelArrays",
            ErrorCode::InvalidIndexSpecificationOption => "InvalidIndexSpecificationOption",
            ErrorCode::NoQueryExecutionPlans => "NoQueryExecutionPlans",
            ErrorCode::QueryExceededMemoryLimitNoDiskUseAllowed => {
                "QueryExceededMemoryLimitNoDiskUseAllowed"
            }
            ErrorCode::JSInterpreterFailure => "JSInterpreterFailure",
            ErrorCode::ExceededMemoryLimit => "ExceededMemoryLimit",
            ErrorCode::MergeStageNoMatchingDocument => "MergeStageNoMatchingDocument",
            ErrorCode::MaxSubPipelineDepthExceeded => "MaxSubPipelineDepthExceeded",
            ErrorCode::InvalidReplicaSetConfig => "InvalidReplicaSetConfig",
            ErrorCode::NotWritablePrimary => "NotWritablePrimary",
            ErrorCode::UnsatisfiableWriteConcern => "UnsatisfiableWriteConcern",
            ErrorCode::NoReplicationEnabled => "NoReplicationEnabled",
            ErrorCode::NotYetInitialized => "NotYetInitialized",
            ErrorCode::AlreadyInitialized => "AlreadyInitialized",
            ErrorCode::NewReplicaSetConfigurationIncompatible => {
                "NewReplicaSetConfigurationIncompatible"
            }
            ErrorCode::ExceededTimeLimit => "ExceededTimeLimit",
            ErrorCode::NotPrimaryOrSecondary => "NotPrimaryOrSecondary",
            ErrorCode::NodeNotFound => "NodeNotFound",
            ErrorCode::WriteConcernTimeout => "WriteConcernTimeout",
            ErrorCode::UnknownReplWriteConcern => "UnknownReplWriteConcern",
            ErrorCode::FailedToSatisfyReadPreference => "FailedToSatisfyReadPreference",
            ErrorCode::MaxStalenessOutOfRange => "MaxStalenessOutOfRange",
            ErrorCode::MaxTimeMSExpired => "MaxTimeMSExpired",
            ErrorCode::NotAReplicaSet => "NotAReplicaSet",
            ErrorCode::LinearizableReadConcernError => "LinearizableReadConcernError",
            ErrorCode::QueryPlanKilled => "QueryPlanKilled",
            ErrorCode::CappedPositionLost => "CappedPositionLost",
            ErrorCode::ShardKeyNotFound => "ShardKeyNotFound",
            ErrorCode::ShardNotFound => "ShardNotFound",
            ErrorCode::NamespaceNotSharded => "NamespaceNotSharded",
            ErrorCode::OperationFailed => "OperationFailed",
            ErrorCode::CommandNotSupported => "CommandNotSupported",
            ErrorCode::Location(n) => return format!("Location{n}"),
        };
        s.to_string()
    }
}

/// An error as MongoDB reports it: `{ ok: 0, code, codeName, errmsg }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    /// Extra reply fields MongoDB sends with some errors (`keyPattern`/`keyValue` for E11000).
    pub details: Option<Box<bson::Document>>,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            details: None,
        }
    }

    pub fn with_details(mut self, details: bson::Document) -> Self {
        self.details = Some(Box::new(details));
        self
    }

    pub fn bad_value(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::BadValue, message)
    }

    pub fn type_mismatch(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::TypeMismatch, message)
    }

    pub fn location(code: i32, message: impl Into<String>) -> Self {
        Error::new(ErrorCode::Location(code), message)
    }

    pub fn code(&self) -> i32 {
        self.code.code()
    }

    pub fn code_name(&self) -> String {
        self.code.name()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_map_back_to_named_codes() {
        for c in ErrorCode::NAMED {
            assert_eq!(ErrorCode::from_code(c.code()), *c, "{c:?}");
        }
        assert_eq!(ErrorCode::from_code(40324), ErrorCode::Location(40324));
    }

    #[test]
    fn location_codes_are_named_like_mongodb() {
        let e = Error::location(40324, "Unrecognized pipeline stage name: '$foo'");
        assert_eq!(e.code(), 40324);
        assert_eq!(e.code_name(), "Location40324");
        assert_eq!(Error::bad_value("x").code_name(), "BadValue");
        assert_eq!(Error::new(ErrorCode::DuplicateKey, "x").code(), 11000);
        // A collator that cannot be built: MongoDB's OperationFailed.
        assert_eq!(ErrorCode::from_code(96).name(), "OperationFailed");
    }
}
