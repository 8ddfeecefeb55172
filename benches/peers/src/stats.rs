//! Median, mean, min and max of a list of timings.

/// Summary of a list of samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Middle value (mean of the two middle values for an even count).
    pub median: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
}

impl Summary {
    /// The summary of `samples` (all zero for an empty list).
    pub fn of(samples: &[f64]) -> Self {
        if samples.is_empty() {
            return Self {
                median: 0.0,
                mean: 0.0,
                min: 0.0,
                max: 0.0,
            };
        }
        let mut v = samples.to_vec();
        v.sort_by(f64::total_cmp);
        let k = v.len();
        let median = if k % 2 == 1 {
            v[k / 2]
        } else {
            0.5 * (v[k / 2 - 1] + v[k / 2])
        };
        Self {
            median,
            mean: v.iter().sum::<f64>() / k as f64,
            min: v[0],
            max: v[k - 1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Summary;

    #[test]
    fn odd_and_even() {
        let s = Summary::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.mean, s.min, s.max), (2.0, 2.0, 1.0, 3.0));
        assert_eq!(Summary::of(&[4.0, 1.0, 2.0, 3.0]).median, 2.5);
    }
}
