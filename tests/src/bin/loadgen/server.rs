//! The server under test: one already running (a URL and maybe a pid), or one this process
//! starts and kills. Its memory and CPU time come from /proc.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::cli::ServerArgs;
use crate::signals::{StopSignal, Stopped};

/// How long a spawned server may take to accept its first connection.
const START_PATIENCE: Duration = Duration::from_secs(15);

pub struct Target {
    pub url: String,
    pub pid: Option<u32>,
    child: Option<Child>,
}

/// A server's resident memory now and at its peak, in KiB (VmRSS, VmHWM).
#[derive(Clone, Copy, Debug)]
pub struct Memory {
    pub rss_kib: u64,
    pub hwm_kib: u64,
}

impl Target {
    /// The server of `args`, started if asked; a `stop` signal while it starts kills it.
    pub fn open(args: &ServerArgs, stop: &StopSignal) -> anyhow::Result<Target> {
        match (&args.url, &args.spawn_server) {
            (Some(url), _) => Ok(Target {
                url: url.clone(),
                pid: args.server_pid,
                child: None,
            }),
            (None, Some(path)) => spawn(path, args.server_data.as_deref(), &args.server_args, stop),
            (None, None) => bail!("give --url of a running server or --spawn-server PATH"),
        }
    }

    /// The URL of node `k` (modulo their number) of a hall given as several URLs separated by
    /// commas; the one URL otherwise.
    pub fn node_url(&self, k: usize) -> String {
        let urls: Vec<&str> = self.url.split(',').map(str::trim).collect();
        urls[k % urls.len()].to_string()
    }

    /// How many nodes the URL names.
    pub fn nodes(&self) -> usize {
        self.url.split(',').count()
    }

    pub fn memory(&self) -> Option<Memory> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid?)).ok()?;
        let field = |name: &str| -> Option<u64> {
            let line = status.lines().find(|line| line.starts_with(name))?;
            line.split_whitespace().nth(1)?.parse().ok()
        };
        Some(Memory {
            rss_kib: field("VmRSS:")?,
            hwm_kib: field("VmHWM:")?,
        })
    }

    /// User plus system CPU seconds the server has used so far.
    pub fn cpu_seconds(&self) -> Option<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid?)).ok()?;
        // The command name may hold spaces; the fields after its closing parenthesis are fixed.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: u64 =
            fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some(ticks as f64 / 100.0) // USER_HZ is 100 on Linux
    }

    /// An error if the server this process started has exited.
    pub fn check_alive(&mut self) -> anyhow::Result<()> {
        if let Some(child) = &mut self.child
            && let Some(status) = child.try_wait()?
        {
            bail!("the server exited during the run ({status})");
        }
        Ok(())
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The host's load averages over 1, 5 and 15 minutes (other work on the machine skews the
/// figures).
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut fields = text
        .split_whitespace()
        .map(|field| field.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

fn free_port() -> anyhow::Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0").context("cannot find a free port")?;
    Ok(listener.local_addr()?)
}

/// Has the server be killed when loadgen dies, however it dies: `Drop` and the signal handlers
/// kill it on the ways loadgen ends by itself or by SIGINT and SIGTERM, but nothing of
/// loadgen's runs on SIGKILL (or a crash of the whole process). Linux sends the child the
/// parent-death signal then. It comes when the thread that spawned the child ends, not the
/// process: servers are spawned from the main thread (`Target::open`, before the run), which
/// lasts as long as the process.
#[cfg(target_os = "linux")]
fn die_with_this_process(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let loadgen = std::process::id();
    // SAFETY: the hook runs in the child between fork and exec, where only async-signal-safe
    // calls are allowed: prctl and getppid are system calls, and nothing is allocated.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // Had loadgen died before the prctl, no signal would come: the child now has
            // another parent, and must not start a server nobody will stop. (An OS error, as
            // a message would be allocated.)
            if libc::getppid() as u32 != loadgen {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Elsewhere a server outlives loadgen killed by SIGKILL: there is no parent-death signal.
#[cfg(not(target_os = "linux"))]
fn die_with_this_process(_command: &mut Command) {}

fn spawn(
    path: &Path,
    data: Option<&Path>,
    extra: &[String],
    stop: &StopSignal,
) -> anyhow::Result<Target> {
    let addr = free_port()?;
    let mut command = Command::new(path);
    match data {
        Some(dir) => command.arg("--data").arg(dir),
        None => command.arg("--memory"),
    };
    command.arg("--addr").arg(addr.to_string());
    // Every client of a load test comes from this one host.
    if !extra
        .iter()
        .any(|arg| arg.starts_with("--connections-per-address"))
    {
        command.arg("--connections-per-address=1000000");
    }
    command
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    if std::env::var_os("RUST_LOG").is_none() {
        // One info line per connection would flood the terminal.
        command.env("RUST_LOG", "warn");
    }
    die_with_this_process(&mut command);
    let child = command
        .spawn()
        .with_context(|| format!("cannot start the server {}", path.display()))?;
    let mut target = Target {
        url: format!("ws://{addr}"),
        pid: Some(child.id()),
        child: Some(child),
    };
    let started = Instant::now();
    loop {
        if let Some(signal) = stop.received() {
            // Dropping `target` kills the server.
            return Err(Stopped {
                signal,
                server_killed: true,
            }
            .into());
        }
        if let Some(child) = &mut target.child
            && let Some(status) = child.try_wait()?
        {
            bail!(
                "the server {} exited before listening ({status})",
                path.display()
            );
        }
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            eprintln!(
                "loadgen: started {} (pid {}) on {addr}",
                path.display(),
                target.pid.unwrap_or(0)
            );
            return Ok(target);
        }
        if started.elapsed() > START_PATIENCE {
            bail!(
                "the server {} did not accept connections on {addr} within {} s",
                path.display(),
                START_PATIENCE.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
