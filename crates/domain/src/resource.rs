//! The words shared by every resource: which kind it is, and through which door a change came.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::validation::shown_input;

/// The four user-managed resources.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    Model,
    Exchange,
    Strategy,
    Trader,
}

impl ResourceKind {
    pub const ALL: [ResourceKind; 4] = [
        ResourceKind::Model,
        ResourceKind::Exchange,
        ResourceKind::Strategy,
        ResourceKind::Trader,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ResourceKind::Model => "model",
            ResourceKind::Exchange => "exchange",
            ResourceKind::Strategy => "strategy",
            ResourceKind::Trader => "trader",
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            ResourceKind::Model => "模型",
            ResourceKind::Exchange => "交易所账户",
            ResourceKind::Strategy => "策略",
            ResourceKind::Trader => "交易员",
        }
    }
}

impl fmt::Display for ResourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ResourceKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ResourceKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("unknown resource kind \"{}\"", shown_input(s)))
    }
}

/// Where a mutation came from, recorded in the audit table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Cli,
    Chat,
    Api,
    /// An MCP client (another agent or an IDE) through `nofxi mcp` or `/mcp`.
    Mcp,
    /// nofxi itself, e.g. purging the trash after 30 days.
    System,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Cli => "cli",
            Channel::Chat => "chat",
            Channel::Api => "api",
            Channel::Mcp => "mcp",
            Channel::System => "system",
        }
    }
}

impl FromStr for Channel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [
            Channel::Cli,
            Channel::Chat,
            Channel::Api,
            Channel::Mcp,
            Channel::System,
        ]
        .into_iter()
        .find(|c| c.as_str() == s)
        .ok_or_else(|| format!("unknown channel \"{}\"", shown_input(s)))
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who is changing something, through which door, and whether they confirmed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub user: String,
    pub channel: Channel,
    /// True when the user saw a summary and confirmed (chat), or the command itself is the
    /// explicit act (CLI).
    pub confirmed: bool,
}

impl Actor {
    pub fn new(user: impl Into<String>, channel: Channel, confirmed: bool) -> Self {
        Actor {
            user: user.into(),
            channel,
            confirmed,
        }
    }
}

/// The longest resource name accepted.
pub const NAME_MAX: usize = 64;
