//! Reading one of the site's files from the shell worker, synchronously (a worker may): the data
//! the wasm module does not link but reads when first used, the locales' collation tailorings
//! (`collation_data`) and the built-in lessons (`lessons`). The path is relative to `worker.js`,
//! so the page, a copy of the site under a sub-path and the embeddable widget all read it from
//! where the wasm came from.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{XmlHttpRequest, XmlHttpRequestResponseType};

/// Reads `path`: its bytes, or what went wrong (`fetching <path> answered HTTP 404 Not Found`).
pub fn read(url: &str) -> Result<Vec<u8>, String> {
    let request = XmlHttpRequest::new().map_err(|e| describe(&e))?;
    request
        .open_with_async("GET", url, false)
        .map_err(|e| describe(&e))?;
    request.set_response_type(XmlHttpRequestResponseType::Arraybuffer);
    request
        .send()
        .map_err(|e| format!("fetching {url} failed: {}", describe(&e)))?;
    let status = request.status().unwrap_or(0);
    if status != 200 {
        let text = request.status_text().unwrap_or_default();
        return Err(format!("fetching {url} answered HTTP {status} {text}")
            .trim_end()
            .to_string());
    }
    let body = request.response().map_err(|e| describe(&e))?;
    let buffer = body
        .dyn_into::<js_sys::ArrayBuffer>()
        .map_err(|_| format!("fetching {url} gave no binary data"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the browser refused the request".to_string())
}
