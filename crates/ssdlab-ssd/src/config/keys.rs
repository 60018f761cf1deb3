//! Every settable key of a config, set or not, so `ssdlab config` can list the optional keys a
//! config leaves out (issue 36: `read_path.aoa_ecc.hot_switch_pe_cycles` was accepted by `--set`
//! but appeared nowhere).
//!
//! Derived from the config types themselves, not from a hand-kept list: a serde serializer walks a
//! config and records the dotted path of every struct field. A field holding `None`, or one that
//! serde skips because it is empty (`skip_serializing_if`; serde reports those through
//! `SerializeStruct::skip_field`), is an unset optional key. Left out: keys inside an unset optional
//! table (only the table's own key is listed, e.g. `device.scm`), inside lists and maps (the list or
//! map is one key), and the variants an enum could take instead of the one it holds.

use serde::ser::{self, Serialize};
use std::fmt;

/// One key of a config: its dotted path and whether the config gives it a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigKey {
    pub path: String,
    pub set: bool,
}

/// Every key of `value` (a config or one of its tables), in declaration order.
pub fn keys<T: Serialize>(value: &T) -> Vec<ConfigKey> {
    let mut keys = Vec::new();
    // The collector's error type exists because serde demands one; it is never produced.
    let _ = value.serialize(Collector { path: String::new(), keys: &mut keys });
    keys
}

#[derive(Debug)]
pub struct Never;

impl fmt::Display for Never {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unreachable")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Never
    }
}

struct Collector<'a> {
    path: String,
    keys: &'a mut Vec<ConfigKey>,
}

impl Collector<'_> {
    fn leaf(self, set: bool) -> Result<(), Never> {
        if !self.path.is_empty() {
            self.keys.push(ConfigKey { path: self.path, set });
        }
        Ok(())
    }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A table's fields are keys of their own; a list, a map or an enum's payload is one key.
struct Compound<'a> {
    path: String,
    keys: &'a mut Vec<ConfigKey>,
    /// Descend into fields (a struct) or record the whole as one key on `end` (anything else).
    descend: bool,
}

impl Compound<'_> {
    fn end_compound(self) -> Result<(), Never> {
        if !self.descend && !self.path.is_empty() {
            self.keys.push(ConfigKey { path: self.path, set: true });
        }
        Ok(())
    }
}

impl<'a> ser::Serializer for Collector<'a> {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, _: bool) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_i8(self, _: i8) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_i16(self, _: i16) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_i32(self, _: i32) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_i64(self, _: i64) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_u8(self, _: u8) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_u16(self, _: u16) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_u32(self, _: u32) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_u64(self, _: u64) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_f32(self, _: f32) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_f64(self, _: f64) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_char(self, _: char) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_str(self, _: &str) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_none(self) -> Result<(), Never> {
        self.leaf(false)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Never> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<(), Never> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Never> {
        self.leaf(true)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Never> {
        Ok(Compound { path: self.path, keys: self.keys, descend: false })
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Never> {
        Ok(Compound { path: self.path, keys: self.keys, descend: false })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Never> {
        Ok(Compound { path: self.path, keys: self.keys, descend: false })
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Never> {
        Ok(Compound { path: self.path, keys: self.keys, descend: false })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Never> {
        Ok(Compound { path: self.path, keys: self.keys, descend: false })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Never> {
        Ok(Compound { path: self.path, keys: self.keys, descend: true })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Never> {
        Ok(Compound { path: self.path, keys: self.keys, descend: false })
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), Never> {
        value.serialize(Collector { path: child(&self.path, key), keys: self.keys })
    }
    fn skip_field(&mut self, key: &'static str) -> Result<(), Never> {
        self.keys.push(ConfigKey { path: child(&self.path, key), set: false });
        Ok(())
    }
    fn end(self) -> Result<(), Never> {
        self.end_compound()
    }
}

/// The rest record their whole value as one key.
macro_rules! whole_value {
    ($trait:ident, $method:ident $(, $key:ident)?) => {
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Never;
            fn $method<T: ?Sized + Serialize>(&mut self, $($key: &'static str,)? _: &T) -> Result<(), Never> {
                Ok(())
            }
            fn end(self) -> Result<(), Never> {
                self.end_compound()
            }
        }
    };
}

whole_value!(SerializeSeq, serialize_element);
whole_value!(SerializeTuple, serialize_element);
whole_value!(SerializeTupleStruct, serialize_field);
whole_value!(SerializeTupleVariant, serialize_field);
whole_value!(SerializeStructVariant, serialize_field, _key);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, _: &T) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, _: &T) -> Result<(), Never> {
        Ok(())
    }
    fn end(self) -> Result<(), Never> {
        self.end_compound()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_optional_keys_of_a_preset_are_listed() {
        let config = crate::presets::load("seed000-aoa", &[]).expect("preset loads");
        let keys = keys(&config);
        let unset: Vec<&str> = keys.iter().filter(|k| !k.set).map(|k| k.path.as_str()).collect();
        for expected in ["read_path.aoa_ecc.hot_switch_pe_cycles", "read_path.aoa_ecc.cold_switch_pe_cycles"] {
            assert!(unset.contains(&expected), "{expected} missing from {unset:?}");
        }
        // Set keys are listed as set, tables are not keys of their own.
        let set = |path: &str| keys.iter().find(|k| k.path == path).map(|k| k.set);
        assert_eq!(set("read_path.aoa_ecc.decision_rule"), Some(true));
        assert_eq!(set("read_path.aoa_ecc"), None);
        // Every unset key is accepted by an override (what `--set` does).
        let overrides: Vec<String> = vec!["read_path.aoa_ecc.hot_switch_pe_cycles=1500.0".into()];
        let with = crate::presets::load("seed000-aoa", &overrides).expect("override accepted");
        assert_eq!(with.read_path.aoa_ecc.hot_switch_pe_cycles, Some(1500.0));
    }
}
