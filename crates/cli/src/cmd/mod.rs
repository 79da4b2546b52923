//! One module per command group.

pub mod paths;
