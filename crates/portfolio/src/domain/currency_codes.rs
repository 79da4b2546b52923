//! The currency codes a record, a rate or a portfolio may use: ISO 4217's, and the crypto
//! units crypto pairs are quoted in. A code of the right shape that is none of these
//! (`MINE`, a typo such as `UDS`) was stored as a currency and then asked for rates nobody
//! could give; it is refused where it is typed, by name.

/// ISO 4217's codes in use, with the few a statement of recent years may still carry
/// (HRK, SLL, ZWL, ANG); without XTS and XXX, which name no money.
pub const ISO_4217: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD",
    "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUC", "CUP",
    "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP",
    "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF", "IDR",
    "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW",
    "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA",
    "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD",
    "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG",
    "QAR", "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE",
    "SLL", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP",
    "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED",
    "VES", "VND", "VUV", "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG",
    "XDR", "XOF", "XPD", "XPF", "XPT", "XSU", "XUA", "YER", "ZAR", "ZMW", "ZWG", "ZWL",
];

/// Not in ISO 4217 but on Hong Kong statements: the offshore yuan.
pub const MARKET_CODES: &[&str] = &["CNH"];

/// The units crypto pairs are quoted in (a BTC bought for USDT is priced in USDT): the quote
/// units the CSV import already reads as crypto.
pub const CRYPTO_UNITS: &[&str] = &["USDT", "USDC", "BTC", "ETH", "FDUSD"];

/// Whether `code` (upper case) is a currency of one of the lists above.
pub fn is_known(code: &str) -> bool {
    [ISO_4217, MARKET_CODES, CRYPTO_UNITS]
        .iter()
        .any(|list| list.contains(&code))
}

/// Whether `code` is a crypto quote unit.
pub fn is_crypto_unit(code: &str) -> bool {
    CRYPTO_UNITS.contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_are_sorted_three_letter_codes_without_repeats() {
        for pair in ISO_4217.windows(2) {
            assert!(pair[0] < pair[1], "{pair:?} is out of order or repeated");
        }
        assert!(
            ISO_4217
                .iter()
                .all(|c| c.len() == 3 && c.chars().all(|l| l.is_ascii_uppercase()))
        );
        for code in ["CNY", "HKD", "USD", "EUR", "JPY", "CNH", "USDT", "BTC"] {
            assert!(is_known(code), "{code}");
        }
        for code in ["MINE", "UDS", "XXX", "XTS", "RMB"] {
            assert!(!is_known(code), "{code}");
        }
    }
}
