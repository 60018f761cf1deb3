//! `[verification]`: the data-integrity oracle.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct VerificationConfig {
    /// Tag every written page and check that every read returns the latest write.
    pub integrity_oracle: bool,
}
