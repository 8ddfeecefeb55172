//! One JSON object on one line, fields in the order they are added, numbers with a fixed
//! number of decimals (as the reference result files print them).

use std::fmt::Write;

/// A JSON line under construction.
#[derive(Default)]
pub struct Line {
    body: String,
}

impl Line {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    fn key(&mut self, key: &str) {
        if !self.body.is_empty() {
            self.body.push(',');
        }
        self.body
            .push_str(&serde_json::to_string(key).expect("a string serialises"));
        self.body.push(':');
    }

    /// A string field.
    pub fn str(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        self.body
            .push_str(&serde_json::to_string(value).expect("a string serialises"));
        self
    }

    /// An integer field.
    pub fn int(&mut self, key: &str, value: impl Into<i128>) -> &mut Self {
        self.key(key);
        let _ = write!(self.body, "{}", value.into());
        self
    }

    /// A boolean field.
    pub fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.key(key);
        self.body.push_str(if value { "true" } else { "false" });
        self
    }

    /// A number with `decimals` digits after the point (`null` if not finite).
    pub fn num(&mut self, key: &str, value: f64, decimals: usize) -> &mut Self {
        self.key(key);
        if value.is_finite() {
            let _ = write!(self.body, "{value:.decimals$}");
        } else {
            self.body.push_str("null");
        }
        self
    }

    /// A number printed as Rust prints it (shortest form that reads back the same).
    pub fn float(&mut self, key: &str, value: f64) -> &mut Self {
        self.key(key);
        let _ = write!(self.body, "{value}");
        self
    }

    /// The finished line, without a trailing newline.
    pub fn finish(&self) -> String {
        format!("{{{}}}", self.body)
    }
}

#[cfg(test)]
mod tests {
    use super::Line;

    #[test]
    fn parses_back() {
        let mut l = Line::new();
        l.str("scene", "a\"b")
            .int("n", 3u32)
            .num("x", 1.0, 4)
            .bool("sleep", true)
            .float("d", 1.2)
            .num("bad", f64::NAN, 2);
        let s = l.finish();
        assert_eq!(
            s,
            r#"{"scene":"a\"b","n":3,"x":1.0000,"sleep":true,"d":1.2,"bad":null}"#
        );
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["n"], 3);
    }
}
