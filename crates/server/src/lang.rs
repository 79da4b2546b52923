//! The language of an HTTP reply: the first of `Accept-Language`'s languages nofxi speaks.

use axum::http::HeaderMap;
use axum::http::header::ACCEPT_LANGUAGE;
use nofxi_skills::text::Lang;

/// `zh-CN,zh;q=0.9,en;q=0.8` → Chinese; anything without a Chinese tag before an English one
/// → English, the API's default.
pub fn reply_lang(headers: &HeaderMap) -> Lang {
    let Some(value) = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()) else {
        return Lang::En;
    };
    for tag in value.split(',') {
        let tag = tag
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if tag.starts_with("zh") {
            return Lang::Zh;
        }
        if tag.starts_with("en") {
            return Lang::En;
        }
    }
    Lang::En
}

tokio::task_local! {
    /// The language of the request being answered, set by [`with_reply_lang`] around every
    /// handler so an error can be worded for its reader wherever it is turned into a response.
    static REPLY_LANG: Lang;
}

/// Middleware: answer this request in its `Accept-Language`.
pub async fn with_reply_lang(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let lang = reply_lang(request.headers());
    REPLY_LANG.scope(lang, next.run(request)).await
}

/// The language of the request being answered (English outside one).
pub fn current() -> Lang {
    REPLY_LANG.try_with(|l| *l).unwrap_or(Lang::En)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn lang_of(value: &str) -> Lang {
        let mut headers = HeaderMap::new();
        headers.insert(
            ACCEPT_LANGUAGE,
            HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")),
        );
        reply_lang(&headers)
    }

    #[test]
    fn first_spoken_language_wins() {
        assert_eq!(lang_of("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
        assert_eq!(lang_of("en-US,zh;q=0.5"), Lang::En);
        assert_eq!(lang_of("fr-FR,zh;q=0.5"), Lang::Zh);
        assert_eq!(lang_of("fr-FR"), Lang::En);
        assert_eq!(reply_lang(&HeaderMap::new()), Lang::En);
    }
}
