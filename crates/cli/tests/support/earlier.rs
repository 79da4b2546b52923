//! Accounts of a type nofxi no longer offers for new accounts (Gate, KuCoin, Aster, Lighter),
//! put in a home's store the way an older nofxi made them: `exchange add` refuses them now.

use std::path::Path;

use nofxi_domain::{Actor, Channel, CredentialField, Credentials, ExchangeSpec};
use nofxi_store::Store;

/// Adds `name` of type `kind` with `credentials` for the CLI's default user, as made earlier.
pub fn exchange(home: &Path, kind: &str, name: &str, credentials: &[(CredentialField, &str)]) {
    let credentials = credentials
        .iter()
        .fold(Credentials::new(), |c, (field, value)| {
            c.with(*field, *value)
        });
    let spec = ExchangeSpec {
        exchange_type: kind.into(),
        account_name: name.into(),
        enabled: true,
        testnet: false,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Store::open(home).await.unwrap();
        let actor = Actor::new("local", Channel::Cli, true);
        nofxi_store::test_support::insert_exchange_made_earlier(&store, &actor, spec, credentials)
            .await
            .unwrap();
    });
}
