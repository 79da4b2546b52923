//! Loopback mock servers for tests, never used by the product.
//!
//! Each mock binds 127.0.0.1 on port 0, serves the real wire format of the service it stands for
//! and checks what a real server checks (signatures, timestamps), so a test against it exercises
//! the same code paths as production. Each can be told to misbehave on purpose.
//!
//! - [`binance`]: Binance USDⓈ-M futures REST (signed endpoints, error codes, its own order book).
//! - [`bybit`]: Bybit v5 USDT perpetuals REST (signed endpoints, Bybit's envelope and codes,
//!   conditional orders fired from its own mark).
//! - [`hyperliquid`]: Hyperliquid perpetuals (`/info` and `/exchange`, EIP-712 signatures
//!   recovered for real and checked against the approved agent wallets, nonces per signer,
//!   triggers fired from its own mark).
//! - [`llm`]: OpenAI, Anthropic and Gemini chat APIs, streaming and not, answering a per-test
//!   script of replies and recording every request.

pub mod binance;
pub mod bitget;
pub mod bybit;
pub mod disguise;
pub mod hyperliquid;
pub mod llm;
pub mod okx;

pub use llm::{MockLlm, RecordedRequest, Reply};
