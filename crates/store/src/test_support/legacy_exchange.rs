//! An exchange account of a type nofxi no longer offers for new accounts (Gate, KuCoin, Aster,
//! Lighter), as an older nofxi made it: the same row, encrypted credentials and audit entry
//! that `create_exchange` wrote then, under the rules of its time (every other check holds).
//! Tests use it to show such an account still loads, lists, updates and deletes, and says that
//! trading on it is not available; nothing else can make one.

use std::collections::BTreeSet;

use nofxi_domain::{Actor, Credentials, Exchange, ExchangeSpec, MarketSource};

use crate::Store;
use crate::error::StoreError;
use crate::exchanges::NewExchange;

/// Adds `spec` with `credentials` as an older nofxi did, whether or not its type is offered now.
pub async fn insert_exchange_made_earlier(
    store: &Store,
    actor: &Actor,
    spec: ExchangeSpec,
    credentials: Credentials,
) -> Result<Exchange, StoreError> {
    let new = NewExchange {
        spec: spec.normalized(),
        credentials,
        market: MarketSource::Simulated,
    };
    store
        .insert_exchange(actor, new, |s, c| s.validate(c, &BTreeSet::new()))
        .await
}
