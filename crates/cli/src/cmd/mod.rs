//! One module per command group.

pub mod accounts;
pub mod audit;
pub mod backtest;
pub mod chat;
mod chat_lines;
pub mod common;
pub mod config;
pub mod data;
mod env_credentials;
pub mod eval;
pub mod exchange;
pub mod exchange_live;
mod hidden;
pub mod market;
pub mod mcp;
pub mod model;
pub mod paths;
pub mod portfolio;
pub mod run;
pub mod serve;
pub mod skills;
pub mod strategy;
pub mod trace;
pub mod trader;
pub mod trader_live;
