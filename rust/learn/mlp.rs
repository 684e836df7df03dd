//! A small dense network (issue 26): the value model's inference, hand-written because a
//! model this size (tens of inputs, two hidden layers of tens of units) runs faster as plain
//! loops over `f32` than through a general tensor crate, and needs no dependency.
//!
//! File format (`.khnn`, written by `ketharmad.learn`): the 8 bytes `KHNN0001`, a
//! little-endian `u32` header length, a UTF-8 header of `key=value` lines, then the weights
//! as little-endian `f32`, layer by layer, each layer's matrix (outputs × inputs, row-major)
//! then its bias. Header keys: `game` (the game it plays), `kind` (`value`), `features` (the
//! feature layout's name), `layout` (hex hash of the feature names in order), `card_hash`
//! (hex hash of the card set it was trained on; 0 = none), `dims` (comma-separated layer
//! widths, inputs first, one output last), `activation` (`relu`). Every key is checked;
//! a missing, truncated or foreign file is an error naming what is wrong.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The largest layer width (bounds the stack scratch of `forward`).
pub const MAX_WIDTH: usize = 256;
/// The stack scratch of a model whose layers are all this narrow or less (the shipped
/// Kétharmad policy after its inputs: 64, 32, 1; the value model: 40, 16, 1): a quarter of
/// `MAX_WIDTH`'s to clear per evaluation.
const NARROW: usize = 64;
const MAGIC: &[u8; 8] = b"KHNN0001";

/// A loaded model.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    pub game: String,
    pub kind: String,
    pub features: String,
    pub layout: u64,
    pub card_hash: u64,
    pub dims: Vec<usize>,
    /// Where it was read from ("" for a model built in memory).
    pub path: String,
    weights: Vec<f32>,
    /// Each layer's matrix transposed (inputs × outputs, at the same offsets as in
    /// `weights`; the bias slots unused): the forward pass adds one input's column to every
    /// output at once, a loop the compiler vectorises, with each output's sum taken in the
    /// same order as a row's dot product (bias first, then the inputs in order), so the
    /// results are the same bits.
    cols: Vec<f32>,
    /// The widest layer after the inputs (`dims[1..]`): `forward_with_prefix`'s scratch.
    hidden_max: usize,
}

/// `weights` with each layer's matrix transposed (`Mlp::cols`).
fn transposed(dims: &[usize], weights: &[f32]) -> Vec<f32> {
    let mut cols = vec![0f32; weights.len()];
    let mut off = 0;
    for w in dims.windows(2) {
        let (ni, no) = (w[0], w[1]);
        for o in 0..no {
            for i in 0..ni {
                cols[off + i * no + o] = weights[off + o * ni + i];
            }
        }
        off += ni * no + no;
    }
    cols
}

/// `acc[o] += cols[i][o] * xs[i]` for every output, input by input in order: inputs `xs`'
/// contributions, their columns of `acc.len()` weights each back to back in `cols`. With
/// AVX (detected at run time) the same loop runs eight lanes wide; a lane's multiply and add
/// round as the scalar ones do (no fused multiply-add), so the bits are the same. (Skipping
/// the inputs that are 0, half of a policy's, cut the instructions by a fifth but made the
/// games slower: the test is a branch the predictor cannot learn.)
#[inline]
fn accumulate(acc: &mut [f32], cols: &[f32], xs: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX (checked just above)
        return unsafe { accumulate_avx(acc, cols, xs) };
    }
    accumulate_plain(acc, cols, xs)
}

#[inline(always)]
fn accumulate_plain(acc: &mut [f32], cols: &[f32], xs: &[f32]) {
    // the usual widths with the outputs held in registers across every input (a fixed-size
    // copy the compiler keeps in vector registers) instead of loaded and stored per input
    match acc.len() {
        64 => return accumulate_fixed::<64>(acc, cols, xs),
        32 => return accumulate_fixed::<32>(acc, cols, xs),
        16 => return accumulate_fixed::<16>(acc, cols, xs),
        1 => return accumulate_fixed::<1>(acc, cols, xs),
        _ => {}
    }
    let no = acc.len();
    for (col, &x) in cols.chunks_exact(no).zip(xs) {
        for (a, w) in acc.iter_mut().zip(col) {
            *a += w * x;
        }
    }
}

/// `accumulate_plain` for `N` outputs: the same sums in the same order.
#[inline(always)]
fn accumulate_fixed<const N: usize>(acc: &mut [f32], cols: &[f32], xs: &[f32]) {
    // unwrap: the caller matched acc.len() == N
    let out: &mut [f32; N] = acc.try_into().unwrap();
    let mut r = *out;
    for (col, &x) in cols.chunks_exact(N).zip(xs) {
        for (a, w) in r.iter_mut().zip(col) {
            *a += w * x;
        }
    }
    *out = r;
}

fn relu(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn accumulate_avx(acc: &mut [f32], cols: &[f32], xs: &[f32]) {
    accumulate_plain(acc, cols, xs)
}

/// The hash of a feature layout (FNV-1a over the names joined by newlines).
pub fn layout_hash(names: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            h = (h ^ b'\n' as u64).wrapping_mul(0x100000001b3);
        }
        for b in n.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
    h
}

impl Mlp {
    /// Parse a model file's bytes; `path` names it in errors.
    pub fn parse(bytes: &[u8], path: &str) -> Result<Mlp, String> {
        let bad = |what: String| format!("model file '{path}': {what}");
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(bad("not a ketharmad model (it does not start with KHNN0001)".into()));
        }
        let hl = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        let body = bytes.get(12..12 + hl).ok_or_else(|| bad("truncated in its header".into()))?;
        let header = std::str::from_utf8(body).map_err(|_| bad("its header is not UTF-8".into()))?;
        let mut kv = HashMap::new();
        for line in header.lines().filter(|l| !l.trim().is_empty()) {
            let (k, v) = line.split_once('=').ok_or_else(|| bad(format!("header line '{line}' is not key=value")))?;
            kv.insert(k.trim().to_string(), v.trim().to_string());
        }
        let get = |k: &str| kv.get(k).cloned().ok_or_else(|| bad(format!("its header has no '{k}'")));
        let hex = |k: &str| -> Result<u64, String> { u64::from_str_radix(&get(k)?, 16).map_err(|_| bad(format!("header '{k}' is not a hex number"))) };
        let dims: Vec<usize> =
            get("dims")?.split(',').map(|d| d.trim().parse::<usize>()).collect::<Result<_, _>>().map_err(|_| bad("header 'dims' is not a list of widths".into()))?;
        if dims.len() < 2 || dims.iter().any(|&d| d == 0 || d > MAX_WIDTH) || dims[dims.len() - 1] != 1 {
            return Err(bad(format!("header 'dims' {dims:?} must be 2 or more widths in 1..={MAX_WIDTH}, ending in 1")));
        }
        let act = get("activation")?;
        if act != "relu" {
            return Err(bad(format!("activation '{act}' is not supported (relu)")));
        }
        let want: usize = dims.windows(2).map(|w| w[0] * w[1] + w[1]).sum();
        let rest = &bytes[12 + hl..];
        if rest.len() != want * 4 {
            return Err(bad(format!("holds {} weight bytes, its dims {dims:?} need {} (truncated or corrupt)", rest.len(), want * 4)));
        }
        let weights: Vec<f32> = rest.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(bad("holds a weight that is not finite".into()));
        }
        let cols = transposed(&dims, &weights);
        let hidden_max = dims[1..].iter().copied().max().unwrap_or(1);
        Ok(Mlp {
            game: get("game")?,
            kind: get("kind")?,
            features: get("features")?,
            layout: hex("layout")?,
            card_hash: hex("card_hash")?,
            dims,
            path: path.to_string(),
            weights,
            cols,
            hidden_max,
        })
    }

    /// Read and parse the model file at `path`.
    pub fn load(path: &str) -> Result<Mlp, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("model file '{path}': {e}"))?;
        Mlp::parse(&bytes, path)
    }

    /// Error unless this model plays `game` with the feature layout `names` (`what` = kind).
    pub fn check(&self, game: &str, kind: &str, names: &[&str]) -> Result<(), String> {
        let p = &self.path;
        if self.game != game {
            return Err(format!("model file '{p}' is a model of game '{}', not '{game}'", self.game));
        }
        if self.kind != kind {
            return Err(format!("model file '{p}' is a '{}' model, not a '{kind}' model", self.kind));
        }
        if self.dims[0] != names.len() || self.layout != layout_hash(names) {
            return Err(format!(
                "model file '{p}': its feature layout ({} inputs, layout {:016x}) does not match this build's '{}' ({} inputs, layout {:016x}); retrain it",
                self.dims[0],
                self.layout,
                self.features,
                names.len(),
                layout_hash(names)
            ));
        }
        Ok(())
    }

    /// The network's output (a logit) for inputs `x` (`dims[0]` of them). No allocation.
    pub fn forward(&self, x: &[f32]) -> f32 {
        if self.hidden_max.max(self.dims[0]) <= NARROW {
            self.forward_in::<NARROW>(x)
        } else {
            self.forward_in::<MAX_WIDTH>(x)
        }
    }

    /// `forward` with scratch of `W` (at least every width, the inputs' too).
    fn forward_in<const W: usize>(&self, x: &[f32]) -> f32 {
        let mut a = [0f32; W];
        let n0 = self.dims[0].min(x.len());
        a[..n0].copy_from_slice(&x[..n0]);
        self.layers_from(&mut a, 0)
    }

    /// Layers `first..` on the activations `a` of layer `first`'s inputs: ReLU after every
    /// layer but the last; the output (a logit). `W` bounds every layer's width from `first`
    /// on; the two buffers take turns as input and output (their references swap, not their
    /// contents).
    fn layers_from<const W: usize>(&self, a: &mut [f32; W], first: usize) -> f32 {
        let mut b = [0f32; W];
        let (mut cur, mut next) = (a, &mut b);
        let mut off = 0;
        let last = self.dims.len() - 2;
        for (l, w) in self.dims.windows(2).enumerate() {
            let (ni, no) = (w[0], w[1]);
            if l < first {
                off += ni * no + no;
                continue;
            }
            let cols = &self.cols[off..off + ni * no];
            let bias = &self.weights[off + ni * no..off + ni * no + no];
            off += ni * no + no;
            let acc = &mut next[..no];
            acc.copy_from_slice(bias);
            accumulate(acc, cols, &cur[..ni]);
            if l < last {
                relu(acc);
            }
            std::mem::swap(&mut cur, &mut next);
        }
        cur[0]
    }

    /// The first layer's pre-activation from the first `prefix.len()` inputs alone (its
    /// bias included) into `out`: the part of many inputs that share a prefix (a position
    /// and each of its options) computed once.
    pub fn first_layer_prefix(&self, prefix: &[f32], out: &mut Vec<f32>) {
        let (ni, no) = (self.dims[0], self.dims[1]);
        out.clear();
        out.extend_from_slice(&self.weights[ni * no..ni * no + no]); // the bias
        let n = prefix.len().min(ni);
        accumulate(out, &self.cols[..n * no], &prefix[..n]);
    }

    /// The output (a logit) for the inputs `prefix ++ rest`, given the prefix's share of the
    /// first layer (`first_layer_prefix`) and where the rest starts (`at`). No allocation.
    pub fn forward_with_prefix(&self, pre: &[f32], at: usize, rest: &[f32]) -> f32 {
        if self.hidden_max <= NARROW {
            self.forward_with_prefix_in::<NARROW>(pre, at, rest)
        } else {
            self.forward_with_prefix_in::<MAX_WIDTH>(pre, at, rest)
        }
    }

    /// `forward_with_prefix` with scratch of `W` (at least every width after the inputs).
    fn forward_with_prefix_in<const W: usize>(&self, pre: &[f32], at: usize, rest: &[f32]) -> f32 {
        let mut a = [0f32; W];
        let (ni, no) = (self.dims[0], self.dims[1]);
        let single = self.dims.len() == 2;
        let acc = &mut a[..no];
        acc.copy_from_slice(&pre[..no]);
        let n = rest.len().min(ni - at);
        accumulate(acc, &self.cols[at * no..(at + n) * no], &rest[..n]);
        if !single {
            relu(acc);
        }
        if single {
            a[0]
        } else {
            self.layers_from(&mut a, 1)
        }
    }

    /// The predicted return in -1..=1 (2 σ(logit) − 1): a win chance mapped to the search's scale.
    pub fn value(&self, x: &[f32]) -> f64 {
        let z = self.forward(x) as f64;
        2.0 / (1.0 + (-z).exp()) - 1.0
    }
}

/// A cached model with the modification time, size and (on Unix) inode of the file it was
/// read from: a model rewritten in place by `os.replace` gets a new inode, so it is re-read
/// even when its size and a coarse modification time are unchanged.
type Cached = (Option<std::time::SystemTime>, u64, Arc<Mlp>);

fn identity(meta: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.len() ^ meta.ino().rotate_left(32)
    }
    #[cfg(not(unix))]
    {
        meta.len()
    }
}

/// Every model file loaded by this process, by path: a batch's games share one copy, and a
/// file is read once (re-read when its size or modification time changes).
pub fn cached(path: &str) -> Result<Arc<Mlp>, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Cached>>> = OnceLock::new();
    let meta = std::fs::metadata(path).map_err(|e| format!("model file '{path}': {e}"))?;
    let stamp = (meta.modified().ok(), identity(&meta));
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Ok(c) = cache.lock() {
        if let Some((t, n, m)) = c.get(path) {
            if (*t, *n) == stamp {
                return Ok(m.clone());
            }
        }
    }
    let m = Arc::new(Mlp::load(path)?);
    if let Ok(mut c) = cache.lock() {
        c.insert(path.to_string(), (stamp.0, stamp.1, m.clone()));
    }
    Ok(m)
}

/// Build a model's file bytes (for tests and tools; Python writes the same format).
pub fn to_bytes(game: &str, kind: &str, features: &str, names: &[&str], card_hash: u64, dims: &[usize], weights: &[f32]) -> Vec<u8> {
    let header = format!(
        "game={game}\nkind={kind}\nfeatures={features}\nlayout={:016x}\ncard_hash={card_hash:016x}\ndims={}\nactivation=relu\n",
        layout_hash(names),
        dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",")
    );
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for w in weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}
