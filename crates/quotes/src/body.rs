//! What a feed's answer is before any layout is read: text in the right encoding, and not a web
//! page. Tencent and Sina answer in GBK (their `Content-Type` says so, when it says anything);
//! Eastmoney and Binance answer in UTF-8 JSON.

use encoding_rs::GBK;

use crate::error::QuoteError;
use crate::quote::SourceKind;

/// Decodes a GBK answer. Bytes that are not GBK become U+FFFD rather than failing the whole
/// answer: a garbled name should not hide a readable price, and a garbled price fails later,
/// where the field is named.
pub(crate) fn gbk_text(bytes: &[u8]) -> String {
    let (text, _, _) = GBK.decode(bytes);
    text.into_owned()
}

/// Fails with [`QuoteError::HtmlPage`] when `text` is an HTML page (a block page, a captcha, an
/// error page from a proxy), and with [`QuoteError::UnknownFormat`] when it is empty.
pub(crate) fn reject_non_data(source: SourceKind, text: &str) -> Result<(), QuoteError> {
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if start.is_empty() {
        return Err(QuoteError::UnknownFormat {
            source,
            detail: "the answer is empty".into(),
        });
    }
    let head: String = start
        .chars()
        .take(64)
        .collect::<String>()
        .to_ascii_lowercase();
    if head.starts_with("<!doctype html") || head.starts_with("<html") || head.starts_with("<head")
    {
        return Err(QuoteError::HtmlPage { source });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gbk_names_decode() {
        // 贵州茅台 in GBK.
        let bytes = [0xb9, 0xf3, 0xd6, 0xdd, 0xc3, 0xa9, 0xcc, 0xa8];
        assert_eq!(gbk_text(&bytes), "贵州茅台");
    }

    #[test]
    fn pages_and_empty_answers_are_not_data() {
        let page = "\n  <!DOCTYPE html><html><body>403</body></html>";
        assert_eq!(
            reject_non_data(SourceKind::Sina, page),
            Err(QuoteError::HtmlPage {
                source: SourceKind::Sina
            })
        );
        assert!(matches!(
            reject_non_data(SourceKind::Sina, " \n"),
            Err(QuoteError::UnknownFormat { .. })
        ));
        assert_eq!(
            reject_non_data(SourceKind::Sina, "var hq_str_sh601398=\"\";"),
            Ok(())
        );
    }
}
