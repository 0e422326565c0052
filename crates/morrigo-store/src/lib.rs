//! Files Morrigo writes and later reads back: solve tables, layered solve
//! files, sweep shards, match results, the playground's saved rulesets.
//!
//! Three promises, one place each:
//! - **Atomic**: [`write_atomic`] and [`AtomicFile`] write a temporary file
//!   beside the target, `fsync` it, rename it over the target and `fsync`
//!   the directory. A failure at any step leaves the old file whole.
//! - **Checked**: a binary file ends in a [`seal`] trailer (kind, length,
//!   CRC-32 of everything before it); a JSON line starts with its own CRC
//!   ([`seal_line`]). A damaged or foreign file is refused with its name and
//!   what is wrong ([`StoreError::Damaged`]), never used.
//! - **One writer**: [`lock_exclusive`] takes an advisory lock that the
//!   kernel drops when the process dies, so a killed run never leaves a
//!   stale lock behind.
//!
//! Writes can be made to fail on purpose, so that tests reproduce a full
//! disk from the command line: with `MORRIGO_FAIL_WRITES_AFTER=N` in the
//! environment, every write through this crate fails (as `ENOSPC` would)
//! once the process has written `N` bytes through it.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Why a stored file could not be written or used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An operation on the file failed.
    #[error("cannot {what} `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done (`read`, `write`, `rename`, …).
        what: &'static str,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// The file exists but is not what was written: refused, never used.
    #[error("`{}` is damaged: {why}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Another process holds the file's lock.
    #[error("`{}` is in use by another process ({why})", path.display())]
    Locked {
        /// The lock file.
        path: PathBuf,
        /// The system's answer.
        why: String,
    },
}

impl StoreError {
    /// `what` (`read`, `write`, …) failed on `path`.
    pub fn io(what: &'static str, path: &Path, source: io::Error) -> Self {
        StoreError::Io {
            path: path.to_path_buf(),
            what,
            source,
        }
    }

    /// `path` is not what was written, for the reason `why`.
    pub fn damaged(path: &Path, why: impl Into<String>) -> Self {
        StoreError::Damaged {
            path: path.to_path_buf(),
            why: why.into(),
        }
    }
}

// ---------------------------------------------------------------------------
// Injected write failures

/// The environment variable that makes writes fail after so many bytes.
pub const FAIL_WRITES_ENV: &str = "MORRIGO_FAIL_WRITES_AFTER";

static WRITTEN: AtomicU64 = AtomicU64::new(0);

fn write_budget() -> Option<u64> {
    static BUDGET: OnceLock<Option<u64>> = OnceLock::new();
    *BUDGET.get_or_init(|| std::env::var(FAIL_WRITES_ENV).ok()?.trim().parse().ok())
}

/// Write `bytes` to `out`, counting them against the injected failure
/// budget. Every write of a stored file goes through here.
pub fn write_counted(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    if let Some(budget) = write_budget() {
        let before = WRITTEN.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        if before + bytes.len() as u64 > budget {
            // Part of it reaches the file, as on a disk that fills up.
            let room = budget.saturating_sub(before) as usize;
            out.write_all(&bytes[..room.min(bytes.len())])?;
            return Err(io::Error::new(
                io::ErrorKind::StorageFull,
                format!("no space left on device (injected by {FAIL_WRITES_ENV})"),
            ));
        }
    }
    out.write_all(bytes)
}

// ---------------------------------------------------------------------------
// Atomic writes

/// A file being written in the place of `target`: a temporary file in the
/// same directory, renamed over the target by [`AtomicFile::commit`].
/// Dropped without a commit, the temporary file is removed and the target
/// is untouched.
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    file: Option<io::BufWriter<File>>,
}

impl AtomicFile {
    /// Start writing `target`: a temporary file beside it, renamed over
    /// it by a commit.
    pub fn create(target: &Path) -> Result<Self, StoreError> {
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .ok_or_else(|| {
                StoreError::io(
                    "write",
                    target,
                    io::Error::new(io::ErrorKind::InvalidInput, "not a file name"),
                )
            })?
            .to_string_lossy();
        let tmp = target.with_file_name(format!(
            ".{name}.tmp.{}.{}",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| StoreError::io("write", target, e))?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            tmp,
            file: Some(io::BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// The temporary file's path (a name no reader of the directory takes
    /// for a finished file: it starts with a dot and has `.tmp.` in it).
    pub fn temporary_path(&self) -> &Path {
        &self.tmp
    }

    /// Flush, `fsync`, rename over the target, `fsync` the directory.
    pub fn commit(mut self) -> Result<(), StoreError> {
        let file = self.file.take().expect("committed once");
        let done = (|| {
            let file = file.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            drop(file);
            std::fs::rename(&self.tmp, &self.target)?;
            sync_parent(&self.target)
        })();
        done.map_err(|e| {
            let _ = std::fs::remove_file(&self.tmp);
            StoreError::io("write", &self.target, e)
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        write_counted(self.file.as_mut().expect("not committed"), buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// `fsync` the directory holding `path`, so a rename into it is durable.
pub fn sync_parent(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()
}

/// Replace `path` by `bytes`, whole or not at all.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)
        .map_err(|e| StoreError::io("write", path, e))?;
    file.commit()
}

// ---------------------------------------------------------------------------
// Sealed binary files

/// What a sealed file holds, written into its trailer: a file of one kind
/// is never read as another.
pub type Kind = [u8; 8];

const MAGIC: &[u8; 8] = b"MRGSEAL1";

/// Trailer: kind (8 bytes), payload length (u64 LE), CRC-32 of payload,
/// kind and length (u32 LE), magic (8 bytes).
pub const TRAILER_BYTES: usize = 28;

fn trailer(kind: &Kind, len: u64, mut hasher: crc32fast::Hasher) -> [u8; TRAILER_BYTES] {
    hasher.update(kind);
    hasher.update(&len.to_le_bytes());
    let crc = hasher.finalize();
    let mut t = [0u8; TRAILER_BYTES];
    t[..8].copy_from_slice(kind);
    t[8..16].copy_from_slice(&len.to_le_bytes());
    t[16..20].copy_from_slice(&crc.to_le_bytes());
    t[20..].copy_from_slice(MAGIC);
    t
}

/// `payload` with its trailer.
pub fn seal(kind: &Kind, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + TRAILER_BYTES);
    out.extend_from_slice(payload);
    let mut h = crc32fast::Hasher::new();
    h.update(payload);
    out.extend_from_slice(&trailer(kind, payload.len() as u64, h));
    out
}

fn kind_name(kind: &[u8]) -> String {
    String::from_utf8_lossy(kind)
        .trim_end_matches('\0')
        .to_string()
}

fn check_trailer(
    path: &Path,
    kind: &Kind,
    t: &[u8],
    file_len: u64,
) -> Result<(u64, u32), StoreError> {
    if t.len() != TRAILER_BYTES || &t[20..] != MAGIC {
        return Err(StoreError::damaged(
            path,
            "it does not end in a Morrigo checksum trailer (truncated, or not written by Morrigo)",
        ));
    }
    if &t[..8] != kind {
        return Err(StoreError::damaged(
            path,
            format!(
                "it holds a `{}` file, not a `{}` file",
                kind_name(&t[..8]),
                kind_name(kind)
            ),
        ));
    }
    let len = u64::from_le_bytes(t[8..16].try_into().unwrap());
    if len + TRAILER_BYTES as u64 != file_len {
        return Err(StoreError::damaged(
            path,
            format!(
                "its trailer records {len} bytes of data, the file holds {}",
                file_len.saturating_sub(TRAILER_BYTES as u64)
            ),
        ));
    }
    Ok((len, u32::from_le_bytes(t[16..20].try_into().unwrap())))
}

fn crc_mismatch(path: &Path, want: u32, got: u32) -> StoreError {
    StoreError::damaged(
        path,
        format!("its checksum does not match (CRC-32 {got:08x}, the trailer says {want:08x})"),
    )
}

/// The payload of a sealed file held in memory; `path` names it in errors.
pub fn unseal<'a>(path: &Path, kind: &Kind, bytes: &'a [u8]) -> Result<&'a [u8], StoreError> {
    if bytes.len() < TRAILER_BYTES {
        return Err(StoreError::damaged(
            path,
            format!(
                "it holds {} bytes, too few for a checksum trailer",
                bytes.len()
            ),
        ));
    }
    let (body, t) = bytes.split_at(bytes.len() - TRAILER_BYTES);
    let (len, want) = check_trailer(path, kind, t, bytes.len() as u64)?;
    let mut h = crc32fast::Hasher::new();
    h.update(body);
    let got = trailer(kind, len, h);
    let got = u32::from_le_bytes(got[16..20].try_into().unwrap());
    if got != want {
        return Err(crc_mismatch(path, want, got));
    }
    Ok(body)
}

/// Read a sealed file of at most `max` bytes and return its payload.
pub fn read_sealed(path: &Path, kind: &Kind, max: u64) -> Result<Vec<u8>, StoreError> {
    let file = File::open(path).map_err(|e| StoreError::io("read", path, e))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| StoreError::io("read", path, e))?;
    if bytes.len() as u64 > max {
        return Err(StoreError::damaged(
            path,
            format!("it is larger than {max} bytes, more than such a file can hold"),
        ));
    }
    let n = unseal(path, kind, &bytes)?.len();
    bytes.truncate(n);
    Ok(bytes)
}

/// Check a sealed file by streaming it (for files mapped or read in
/// pieces later); returns the payload's length.
pub fn verify_sealed(path: &Path, kind: &Kind) -> Result<u64, StoreError> {
    let mut file = File::open(path).map_err(|e| StoreError::io("read", path, e))?;
    let file_len = file
        .metadata()
        .map_err(|e| StoreError::io("read", path, e))?
        .len();
    if file_len < TRAILER_BYTES as u64 {
        return Err(StoreError::damaged(
            path,
            format!("it holds {file_len} bytes, too few for a checksum trailer"),
        ));
    }
    let mut h = crc32fast::Hasher::new();
    let mut left = file_len - TRAILER_BYTES as u64;
    let mut buf = vec![0u8; 1 << 20];
    while left > 0 {
        let n = (left.min(buf.len() as u64)) as usize;
        file.read_exact(&mut buf[..n])
            .map_err(|e| StoreError::io("read", path, e))?;
        h.update(&buf[..n]);
        left -= n as u64;
    }
    let mut t = [0u8; TRAILER_BYTES];
    file.read_exact(&mut t)
        .map_err(|e| StoreError::io("read", path, e))?;
    let (len, want) = check_trailer(path, kind, &t, file_len)?;
    let got = trailer(kind, len, h);
    let got = u32::from_le_bytes(got[16..20].try_into().unwrap());
    if got != want {
        return Err(crc_mismatch(path, want, got));
    }
    Ok(len)
}

/// A writer that seals what passes through it: [`SealedWriter::finish`]
/// appends the trailer. For files too large to build in memory.
pub struct SealedWriter<W: Write> {
    inner: W,
    kind: Kind,
    hasher: crc32fast::Hasher,
    len: u64,
}

impl<W: Write> SealedWriter<W> {
    /// Write into `inner` a file of kind `kind`, sealed by [`finish`](Self::finish).
    pub fn new(kind: &Kind, inner: W) -> Self {
        SealedWriter {
            inner,
            kind: *kind,
            hasher: crc32fast::Hasher::new(),
            len: 0,
        }
    }

    /// Write the trailer and hand back the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        let t = trailer(&self.kind, self.len, self.hasher.clone());
        self.inner.write_all(&t)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for SealedWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A CRC-32 digest fed in parts: what a solver prints per table so two
/// runs (or two machines) can be compared without the files.
#[derive(Clone, Default)]
pub struct Digest(crc32fast::Hasher);

impl Digest {
    /// The digest of nothing yet.
    pub fn new() -> Self {
        Digest::default()
    }

    /// Feed `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The CRC-32 of everything fed.
    pub fn finish(self) -> u32 {
        self.0.finalize()
    }
}

// ---------------------------------------------------------------------------
// Checked JSON lines

const LINE_PREFIX: &str = "{\"crc32\":\"";

/// A JSON object line carrying its own checksum as its first field:
/// `{"crc32":"1a2b3c4d",…}`, the CRC-32 of the object as given. The line
/// stays JSON, so other tools (pandas, jq) read it as before.
pub fn seal_line(object: &str) -> String {
    debug_assert!(object.starts_with('{') && object.ends_with('}'));
    let crc = crc32fast::hash(object.as_bytes());
    let rest = &object[1..];
    if rest == "}" {
        format!("{LINE_PREFIX}{crc:08x}\"}}")
    } else {
        format!("{LINE_PREFIX}{crc:08x}\",{rest}")
    }
}

/// The object a [`seal_line`] line holds (without its `crc32` field), or
/// why the line is damaged.
pub fn unseal_line(line: &str) -> Result<String, String> {
    let line = line.trim_end_matches(['\n', '\r']);
    let Some(rest) = line.strip_prefix(LINE_PREFIX) else {
        return Err("the line does not start with its checksum field `crc32`".into());
    };
    let (hex, rest) = (rest.get(..8), rest.get(8..));
    let (Some(hex), Some(rest)) = (hex, rest) else {
        return Err("the line's checksum is cut short".into());
    };
    let want = u32::from_str_radix(hex, 16)
        .ok()
        .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| format!("the line's checksum `{hex}` is not 8 hex digits"))?;
    let object = if rest == "\"}" {
        "{}".to_string()
    } else if let Some(body) = rest.strip_prefix("\",") {
        format!("{{{body}")
    } else {
        return Err("the line's checksum field is malformed".into());
    };
    let got = crc32fast::hash(object.as_bytes());
    if got != want {
        return Err(format!(
            "the line's checksum does not match (CRC-32 {got:08x}, the line says {want:08x})"
        ));
    }
    Ok(object)
}

// ---------------------------------------------------------------------------
// One writer

/// An exclusive advisory lock, held until dropped (or the process dies).
/// An exclusive advisory lock on a file, held until dropped (or until the
/// process dies: the kernel releases it).
#[derive(Debug)]
pub struct Lock {
    _file: File,
    path: PathBuf,
}

impl Lock {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Take the lock file `path` (created if missing) without waiting; `what`
/// says what the lock guards, for the refusal.
pub fn lock_exclusive(path: &Path, what: &str) -> Result<Lock, StoreError> {
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| StoreError::io("create the lock file", path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(Lock {
            _file: file,
            path: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Locked {
            path: path.to_path_buf(),
            why: format!("{what} is already being written by another run"),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError::io("lock", path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("morrigo-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Every one-bit flip of a sealed file is refused (CRC-32 detects all
    /// single-bit errors), and so is every truncation.
    #[test]
    fn every_bit_flip_and_truncation_of_a_sealed_file_is_refused() {
        let payload: Vec<u8> = (0..300u32).map(|i| (i * 7 % 251) as u8).collect();
        let sealed = seal(b"TESTKIND", &payload);
        let p = Path::new("t.bin");
        assert_eq!(unseal(p, b"TESTKIND", &sealed).unwrap(), &payload[..]);
        for bit in 0..sealed.len() * 8 {
            let mut b = sealed.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            assert!(
                unseal(p, b"TESTKIND", &b).is_err(),
                "bit {bit} flipped was accepted"
            );
        }
        for n in 0..sealed.len() {
            assert!(unseal(p, b"TESTKIND", &sealed[..n]).is_err(), "cut at {n}");
        }
        let e = unseal(p, b"OTHERKND", &sealed).unwrap_err().to_string();
        assert_eq!(
            e,
            "`t.bin` is damaged: it holds a `TESTKIND` file, not a `OTHERKND` file"
        );
    }

    /// The streaming writer and checker agree with the in-memory ones.
    #[test]
    fn streamed_seal_equals_in_memory_seal() {
        let d = temp_dir("stream");
        let path = d.join("x.bin");
        let mut w = SealedWriter::new(b"STREAM01", AtomicFile::create(&path).unwrap());
        for i in 0..1000u32 {
            w.write_all(&i.to_le_bytes()).unwrap();
        }
        w.finish().unwrap().commit().unwrap();
        let payload: Vec<u8> = (0..1000u32).flat_map(|i| i.to_le_bytes()).collect();
        assert_eq!(std::fs::read(&path).unwrap(), seal(b"STREAM01", &payload));
        assert_eq!(verify_sealed(&path, b"STREAM01").unwrap(), 4000);
        assert_eq!(read_sealed(&path, b"STREAM01", 1 << 20).unwrap(), payload);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[17] ^= 4;
        std::fs::write(&path, &bytes).unwrap();
        let e = verify_sealed(&path, b"STREAM01").unwrap_err().to_string();
        assert!(e.contains("checksum does not match"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A sealed line reads back as the object; any changed byte is refused.
    #[test]
    fn a_changed_byte_of_a_sealed_line_is_refused() {
        for object in ["{}", r#"{"game":3,"result":"B+R"}"#] {
            let line = seal_line(object);
            assert!(line.starts_with("{\"crc32\":\""), "{line}");
            assert_eq!(unseal_line(&format!("{line}\n")).unwrap(), object);
            for i in 0..line.len() {
                let mut b = line.clone().into_bytes();
                b[i] = if b[i] == b'x' { b'y' } else { b'x' };
                if let Ok(s) = String::from_utf8(b) {
                    assert!(unseal_line(&s).is_err(), "changed byte {i} accepted: {s}");
                }
            }
        }
        assert!(unseal_line(r#"{"game":3}"#).is_err());
    }

    /// A lock is exclusive while held and free again once dropped.
    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let d = temp_dir("lock");
        let path = d.join("lock");
        let first = lock_exclusive(&path, "the match directory").unwrap();
        let e = lock_exclusive(&path, "the match directory").unwrap_err();
        assert!(matches!(e, StoreError::Locked { .. }), "{e}");
        drop(first);
        lock_exclusive(&path, "the match directory").unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// An atomic write that fails leaves the old file whole and no
    /// temporary file behind; an uncommitted file changes nothing.
    #[test]
    fn a_failed_atomic_write_keeps_the_old_file() {
        let d = temp_dir("atomic");
        let path = d.join("rules.yaml");
        write_atomic(&path, b"old contents\n").unwrap();
        {
            let mut f = AtomicFile::create(&path).unwrap();
            f.write_all(b"half").unwrap();
            // Dropped without commit, as when a later write fails.
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"old contents\n");
        // A directory where the file should go: the rename fails.
        let dir_target = d.join("sub");
        std::fs::create_dir(&dir_target).unwrap();
        std::fs::write(dir_target.join("x"), b"x").unwrap();
        assert!(write_atomic(&dir_target, b"new").is_err());
        let left: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
