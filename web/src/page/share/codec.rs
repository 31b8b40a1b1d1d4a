//! A share state's JSON in a URL fragment: deflated with the browser's `CompressionStream`
//! (`deflate-raw`, no library of ours: every current browser has it) and written in base64url
//! (RFC 4648 section 5, no padding), which needs no escaping in a URL.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = r#"
async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}
export async function sprout_deflate(text) {
  const bytes = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export async function sprout_inflate(code) {
  const base64 = code.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - base64.length % 4) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(await pipe(bytes, new DecompressionStream('deflate-raw')));
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn sprout_deflate(text: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch)]
    fn sprout_inflate(code: &str) -> Result<js_sys::Promise, JsValue>;
}

fn message(e: JsValue) -> String {
    js_sys::Reflect::get(&e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// `text` deflated and base64url-encoded.
pub async fn encode(text: &str) -> Result<String, String> {
    let promise = sprout_deflate(text).map_err(message)?;
    let value = JsFuture::from(promise).await.map_err(message)?;
    value
        .as_string()
        .ok_or_else(|| "compression gave no text".into())
}

/// The text back from a link's code.
pub async fn decode(code: &str) -> Result<String, String> {
    let promise = sprout_inflate(code).map_err(message)?;
    let value = JsFuture::from(promise)
        .await
        .map_err(|e| format!("the share link is damaged ({})", message(e)))?;
    value
        .as_string()
        .ok_or_else(|| "decompression gave no text".into())
}
