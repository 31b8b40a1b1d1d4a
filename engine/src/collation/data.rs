//! Where a collator's data comes from.
//!
//! ICU4X's compiled collation data is about 1.3 MB, and almost all of it is the locales'
//! tailorings (`CollationTailoringV1`: Chinese, Japanese and Korean alone are most of it). Natively
//! the engine uses all of it compiled in. In the browser that would be downloaded by every visitor
//! while few queries ever name a collation, so the wasm build compiles in only what every
//! collation needs (the root collation, the per-locale metadata, reorderings and diacritics, the
//! normaliser's tables) and fetches a locale's tailorings the first time a collation of that
//! locale is built: one file per MongoDB locale (`<locale>.postcard`, an ICU4X postcard blob of
//! the tailorings that locale and its `@collation=` variants load), written from the compiled
//! data by this module's tests into `engine/data/collation/` and served from `collation/`.
//!
//! The host registers how to read a file ([`set_tailoring_loader`]; the web worker reads it with
//! a synchronous request, which a worker may make, so the command that needs it simply waits).
//! A locale whose tailoring cannot be read fails with a clear error, and the next use tries again.
//! The files hold exactly what the compiled data answers to the requests ICU4X's collator makes
//! for MongoDB's locales (recorded, not re-derived), so the two sources build the same collators;
//! `tests.rs` checks that for every locale and that the shipped files are current.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use icu_collator::provider::{
    Baked, CollationDiacriticsV1, CollationJamoV1, CollationMetadataV1, CollationReorderingV1,
    CollationRootV1, CollationSpecialPrimariesV1, CollationTailoringV1,
};
use icu_normalizer::provider::{NormalizerNfdDataV1, NormalizerNfdTablesV1};
use icu_provider::buf::AsDeserializingBufferProvider;
use icu_provider::prelude::*;
use icu_provider_blob::BlobDataProvider;

/// Reads one tailoring file by name (`fr.postcard`): its bytes, or why it could not.
pub type TailoringLoader = Box<dyn Fn(&str) -> Result<Vec<u8>, String>>;

thread_local! {
    static LOADER: RefCell<Option<TailoringLoader>> = const { RefCell::new(None) };
    /// The files read so far, by name (kept for the life of the thread: a few KB to ~1 MB).
    static LOADED: RefCell<HashMap<String, Rc<BlobDataProvider>>> = RefCell::new(HashMap::new());
}

/// Sets how this thread reads tailoring files (the browser's worker: from the site's
/// `collation/` folder). Files already read stay.
pub fn set_tailoring_loader(loader: TailoringLoader) {
    LOADER.with(|l| *l.borrow_mut() = Some(loader));
}

/// The tailoring file of a MongoDB locale id: its part before `@collation=` (so `de` and
/// `de@collation=phonebook` share `de.postcard`).
pub fn file_name(locale: &str) -> String {
    let base = locale.split_once("@collation=").map_or(locale, |(b, _)| b);
    format!("{base}.postcard")
}

/// The tailorings in `file`, read through the loader the first time.
fn tailorings(file: &str) -> Result<Rc<BlobDataProvider>, String> {
    if let Some(found) = LOADED.with(|l| l.borrow().get(file).cloned()) {
        return Ok(found);
    }
    let bytes = LOADER.with(|l| match &*l.borrow() {
        Some(load) => load(file),
        None => Err("no way to read collation data was set up".to_string()),
    })?;
    let blob = BlobDataProvider::try_new_from_blob(bytes.into_boxed_slice())
        .map_err(|e| format!("the file is not collation data ({e})"))?;
    let blob = Rc::new(blob);
    LOADED.with(|l| l.borrow_mut().insert(file.to_string(), Rc::clone(&blob)));
    Ok(blob)
}

/// The collator's data: compiled in, but the tailorings from the locale's file.
pub(super) struct SplitProvider {
    file: String,
    /// Why the file could not be read, once a load failed (not retried within one build).
    pub(super) failure: RefCell<Option<String>>,
}

impl SplitProvider {
    pub(super) fn new(locale: &str) -> SplitProvider {
        SplitProvider {
            file: file_name(locale),
            failure: RefCell::new(None),
        }
    }
}

/// Data every collator needs, or small per-locale tables: from the compiled data.
macro_rules! compiled {
    ($provider:ty) => {
        compiled!($provider:
            CollationRootV1 => Baked,
            CollationJamoV1 => Baked,
            CollationSpecialPrimariesV1 => Baked,
            CollationMetadataV1 => Baked,
            CollationReorderingV1 => Baked,
            CollationDiacriticsV1 => Baked,
            NormalizerNfdDataV1 => icu_normalizer::provider::Baked,
            NormalizerNfdTablesV1 => icu_normalizer::provider::Baked,
        );
    };
    ($provider:ty: $($marker:ty => $baked:expr),* $(,)?) => {$(
        impl DataProvider<$marker> for $provider {
            fn load(&self, req: DataRequest) -> Result<DataResponse<$marker>, DataError> {
                $baked.load(req)
            }
        }
    )*};
}

compiled!(SplitProvider);

impl DataProvider<CollationTailoringV1> for SplitProvider {
    fn load(&self, req: DataRequest) -> Result<DataResponse<CollationTailoringV1>, DataError> {
        let not_loaded = || {
            DataError::custom("collation data could not be read")
                .with_req(CollationTailoringV1::INFO, req)
        };
        if self.failure.borrow().is_some() {
            return Err(not_loaded());
        }
        match tailorings(&self.file) {
            Ok(blob) => (*blob).as_deserializing().load(req),
            Err(why) => {
                *self.failure.borrow_mut() = Some(why);
                Err(not_loaded())
            }
        }
    }
}

/// Writing the tailoring files from the compiled data (tests only: `tests.rs` compares them with
/// the shipped files and rewrites them when asked).
#[cfg(test)]
pub(super) mod export {
    use std::collections::BTreeMap;

    use icu_collator::options::CollatorOptions;
    use icu_collator::{Collator, CollatorPreferences};
    use icu_provider::dynutil::UpcastDataPayload;
    use icu_provider::export::{DataExporter, ExportMarker};
    use icu_provider_blob::export::BlobExporter;

    use super::*;
    use crate::collation::locales;

    /// The compiled data, noting every tailoring it hands out and the id it was asked for.
    #[derive(Default)]
    struct Recorder {
        answers: RefCell<
            Vec<(
                DataIdentifierCow<'static>,
                DataPayload<CollationTailoringV1>,
            )>,
        >,
    }

    compiled!(Recorder);

    impl DataProvider<CollationTailoringV1> for Recorder {
        fn load(&self, req: DataRequest) -> Result<DataResponse<CollationTailoringV1>, DataError> {
            let response = Baked.load(req)?;
            self.answers
                .borrow_mut()
                .push((req.id.into_owned(), response.payload.clone()));
            Ok(response)
        }
    }

    /// Every tailoring file: name → bytes. A locale whose collators load no tailoring (`en`)
    /// has none.
    pub fn tailoring_files() -> BTreeMap<String, Vec<u8>> {
        let mut files = BTreeMap::new();
        for base in locales::bases() {
            let recorder = Recorder::default();
            for locale in locales::with_variants(base) {
                let prefs: CollatorPreferences = (&locales::icu_locale(&locale)).into();
                Collator::try_new_unstable(&recorder, prefs, CollatorOptions::default())
                    .expect("the compiled data builds every MongoDB locale's collator");
            }
            let answers = recorder.answers.into_inner();
            if answers.is_empty() {
                continue;
            }
            let mut bytes = Vec::new();
            {
                let mut exporter = BlobExporter::new_with_sink(Box::new(&mut bytes));
                for (id, payload) in answers {
                    exporter
                        .put_payload(
                            CollationTailoringV1::INFO,
                            id.as_borrowed(),
                            &ExportMarker::upcast(payload),
                        )
                        .expect("tailorings serialise");
                }
                exporter
                    .flush(CollationTailoringV1::INFO, Default::default())
                    .expect("flush");
                exporter.close().expect("close");
            }
            files.insert(file_name(base), bytes);
        }
        files
    }
}
