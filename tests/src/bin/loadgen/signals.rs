//! SIGINT and SIGTERM, caught from the start of a run: loadgen then stops the run, kills the
//! server it started (which would otherwise go on running when the signal was sent to loadgen
//! alone) and exits with one line saying why.

use std::fmt;
use std::future::Future;

use tokio::runtime::Runtime;
use tokio::sync::watch;

/// A signal that stops loadgen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    Interrupt,
    Terminate,
}

impl Signal {
    fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }

    /// 128 + the signal's number: what a shell reports for a program the signal ended.
    pub fn exit_code(self) -> u8 {
        match self {
            Signal::Interrupt => 128 + 2,
            Signal::Terminate => 128 + 15,
        }
    }
}

/// The error a run ends with when a signal stopped it.
#[derive(Debug)]
pub struct Stopped {
    pub signal: Signal,
    /// Whether a server loadgen started was killed with it.
    pub server_killed: bool,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stopped by {}", self.signal.name())?;
        if self.server_killed {
            write!(f, "; the server it started was killed")?;
        }
        Ok(())
    }
}

impl std::error::Error for Stopped {}

/// Whether a stop signal came, and a way to wait for one.
pub struct StopSignal(watch::Receiver<Option<Signal>>);

impl StopSignal {
    /// Listens on `runtime`: from this call on, SIGINT and SIGTERM no longer end the process at
    /// once but are reported here.
    pub fn listen(runtime: &Runtime) -> anyhow::Result<StopSignal> {
        let (sender, receiver) = watch::channel(None);
        let _context = runtime.enter();
        let signal = next_signal()?;
        runtime.spawn(async move {
            let _ = sender.send(Some(signal.await));
        });
        Ok(StopSignal(receiver))
    }

    /// The signal received so far, if any.
    pub fn received(&self) -> Option<Signal> {
        *self.0.borrow()
    }

    /// Waits for a signal (forever if none comes).
    pub async fn wait(&self) -> Signal {
        let mut receiver = self.0.clone();
        match receiver.wait_for(Option::is_some).await {
            Ok(signal) => signal.expect("waited for one"),
            Err(_) => std::future::pending().await,
        }
    }
}

/// The first SIGINT or SIGTERM; the handlers are in place when this returns.
#[cfg(unix)]
fn next_signal() -> std::io::Result<impl Future<Output = Signal>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => Signal::Interrupt,
            _ = terminate.recv() => Signal::Terminate,
        }
    })
}

/// Ctrl-C, the one stop signal there is elsewhere.
#[cfg(not(unix))]
fn next_signal() -> std::io::Result<impl Future<Output = Signal>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        Signal::Interrupt
    })
}
