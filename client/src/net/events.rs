//! The channel from the network thread to the UI, with a file descriptor that becomes
//! readable when an event is sent. The window sleeps in `poll` on that descriptor and on its
//! X connection together (`gui/wake.rs`), so it wakes at once for either and for nothing else.

use std::io::{Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use super::NetEvent;

/// The network thread's end.
#[derive(Clone)]
pub struct EventSender {
    events: mpsc::Sender<NetEvent>,
    /// One byte per event, or fewer: a full buffer already says "something waits".
    bell: Arc<UnixStream>,
}

/// The UI's end.
pub struct EventReceiver {
    events: mpsc::Receiver<NetEvent>,
    bell: UnixStream,
}

/// The UI went away.
#[derive(Debug)]
pub struct Gone;

/// A new channel; fails only when the system refuses a socket pair (out of descriptors).
pub fn channel() -> std::io::Result<(EventSender, EventReceiver)> {
    let (sender_bell, receiver_bell) = UnixStream::pair()?;
    sender_bell.set_nonblocking(true)?;
    receiver_bell.set_nonblocking(true)?;
    let (events_tx, events_rx) = mpsc::channel();
    Ok((
        EventSender {
            events: events_tx,
            bell: Arc::new(sender_bell),
        },
        EventReceiver {
            events: events_rx,
            bell: receiver_bell,
        },
    ))
}

impl EventSender {
    /// Sends `event` and rings: after the event is in the channel, so a receiver woken by the
    /// bell always finds it.
    pub fn send(&self, event: NetEvent) -> Result<(), Gone> {
        self.events.send(event).map_err(|_| Gone)?;
        // WouldBlock: the receiver has not drained earlier rings yet, which wake it all the same.
        let _ = (&*self.bell).write(&[1]);
        Ok(())
    }
}

impl EventReceiver {
    /// The next event, if one has arrived.
    pub fn try_recv(&self) -> Option<NetEvent> {
        self.events.try_recv().ok()
    }

    /// The next event, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<NetEvent> {
        self.events.recv_timeout(timeout).ok()
    }

    /// Empties the bell. Call before looking at the channel and then sleeping on
    /// [`bell`](Self::bell): a ring after the look is then still there to wake the sleeper.
    pub fn silence(&self) {
        let mut buffer = [0u8; 256];
        while matches!((&self.bell).read(&mut buffer), Ok(n) if n > 0) {}
    }

    /// Readable once an event was sent after the last [`silence`](Self::silence).
    pub fn bell(&self) -> BorrowedFd<'_> {
        self.bell.as_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::ErrorKind;

    fn readable(fd: BorrowedFd<'_>) -> bool {
        use std::os::fd::AsRawFd;
        let mut poll = libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, no timeout.
        unsafe { libc::poll(&mut poll, 1, 0) == 1 }
    }

    #[test]
    fn the_bell_rings_for_an_event_and_is_silenced() {
        let (sender, receiver) = channel().unwrap();
        assert!(!readable(receiver.bell()), "nothing sent yet");
        sender.send(NetEvent::Disconnected("a".into())).unwrap();
        assert!(readable(receiver.bell()));
        receiver.silence();
        assert!(!readable(receiver.bell()), "silenced");
        assert!(matches!(
            receiver.try_recv(),
            Some(NetEvent::Disconnected(_))
        ));
        let mut buffer = [0u8; 1];
        let error = (&receiver.bell).read(&mut buffer).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::WouldBlock);
    }

    #[test]
    fn many_events_never_block_the_sender() {
        let (sender, receiver) = channel().unwrap();
        for _ in 0..100_000 {
            sender.send(NetEvent::Disconnected(String::new())).unwrap();
        }
        receiver.silence();
        assert_eq!(std::iter::from_fn(|| receiver.try_recv()).count(), 100_000);
        drop(receiver);
        assert!(sender.send(NetEvent::Disconnected(String::new())).is_err());
    }
}
