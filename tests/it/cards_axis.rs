//! Axis cards of Barbarossa to Berlin, each played from a prepared state.

#[allow(unused_imports)]
use crate::cards::*;
