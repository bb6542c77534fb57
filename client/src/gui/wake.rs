//! How the window sleeps between frames: in `poll` on its X connection and on the network's
//! bell together, so the person's input and a server message each wake it at once, and a
//! quiet window draws only when its pacer's timer ends (`pacing.rs`).
//!
//! miniquad owns the X connection and does not show it, but it makes its GLX context current
//! on the drawing thread, and GLX names that context's display; libX11 then gives its socket.
//! Both libraries are already loaded by miniquad, so nothing new is loaded (`RTLD_NOLOAD`).
//! Where that fails (EGL, Wayland, another system) the window has no input to sleep on and
//! looks at its input every [`ASLEEP_FRAME`](super::pacing::ASLEEP_FRAME), as before.
//!
//! The wait is between macroquad's frames, on the thread that owns the connection: Xlib is
//! only asked what it has already read (`XPending`), never to read on another thread.

use std::ffi::{CStr, c_int, c_void};
use std::os::fd::AsRawFd;
use std::time::Duration;

use crate::net::EventReceiver;

/// What ended a sleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woken {
    /// The window's X connection has something: input, most likely.
    Input,
    /// The network has sent an event.
    Network,
    /// The time was up.
    Time,
}

/// Xlib's `XPending`: how many events it has read and not handed out yet.
type Pending = unsafe extern "C" fn(*mut c_void) -> c_int;

/// The window's X connection, found once inside the window.
struct XInput {
    display: *mut c_void,
    pending: Pending,
    fd: c_int,
}

/// What the window sleeps on.
pub struct Sleeper {
    x: Option<XInput>,
}

impl Sleeper {
    /// Finds the window's X connection; call from inside the window, once its first frame
    /// began (miniquad's context is current then).
    pub fn find() -> Sleeper {
        // SAFETY: see `find_x_input`.
        Sleeper {
            x: unsafe { find_x_input() },
        }
    }

    /// Whether input wakes a sleep: if not, the pacer must wake often to look at it.
    pub fn input_wakes(&self) -> bool {
        self.x.is_some()
    }

    /// Sleeps until the window has input, the network an event, or `timeout` has passed.
    pub fn sleep(&self, network: Option<&EventReceiver>, timeout: Duration) -> Woken {
        if let Some(x) = &self.x {
            // SAFETY: the display is miniquad's, alive for as long as the window, and this is
            // its drawing thread, between two of its frames.
            if unsafe { (x.pending)(x.display) } > 0 {
                return Woken::Input;
            }
        }
        let mut fds = Vec::with_capacity(2);
        if let Some(x) = &self.x {
            fds.push(readable(x.fd));
        }
        if let Some(network) = network {
            fds.push(readable(network.bell().as_raw_fd()));
        }
        let millis = c_int::try_from(timeout.as_millis()).unwrap_or(c_int::MAX);
        // SAFETY: `fds` holds `fds.len()` valid pollfds for the call's length.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
        if ready <= 0 {
            return Woken::Time;
        }
        let input = self.x.is_some() && fds[0].revents != 0;
        if let Some(network) = network {
            // Every event rung for is in the channel already, and the frame after this sleep
            // drains the channel: a ring silenced now loses nothing.
            network.silence();
        }
        if input { Woken::Input } else { Woken::Network }
    }
}

fn readable(fd: c_int) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// The X connection of the current GLX context, if there is one.
///
/// # Safety
/// Call on the thread whose GL context miniquad made current.
unsafe fn find_x_input() -> Option<XInput> {
    type GetDisplay = unsafe extern "C" fn() -> *mut c_void;
    type ConnectionNumber = unsafe extern "C" fn(*mut c_void) -> c_int;
    // SAFETY: dlopen with RTLD_NOLOAD only finds libraries already loaded; the symbols are
    // the documented GLX and Xlib functions with these signatures.
    unsafe {
        let gl = loaded(&[c"libGL.so", c"libGL.so.1"])?;
        let x11 = loaded(&[c"libX11.so", c"libX11.so.6"])?;
        let get_display: GetDisplay = std::mem::transmute(symbol(gl, c"glXGetCurrentDisplay")?);
        let connection: ConnectionNumber = std::mem::transmute(symbol(x11, c"XConnectionNumber")?);
        let pending: Pending = std::mem::transmute(symbol(x11, c"XPending")?);
        let display = get_display();
        if display.is_null() {
            return None;
        }
        let fd = connection(display);
        (fd >= 0).then_some(XInput {
            display,
            pending,
            fd,
        })
    }
}

/// The first of `names` that is loaded already.
unsafe fn loaded(names: &[&CStr]) -> Option<*mut c_void> {
    names.iter().find_map(|name| {
        // SAFETY: a valid C string; RTLD_NOLOAD loads nothing.
        let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
        (!handle.is_null()).then_some(handle)
    })
}

unsafe fn symbol(library: *mut c_void, name: &CStr) -> Option<*mut c_void> {
    // SAFETY: a handle from dlopen and a valid C string.
    let address = unsafe { libc::dlsym(library, name.as_ptr()) };
    (!address.is_null()).then_some(address)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::net::NetEvent;
    use crate::net::events::channel;

    #[test]
    fn a_network_event_ends_a_sleep_at_once_and_silence_lasts_the_timeout() {
        let sleeper = Sleeper { x: None };
        let (sender, receiver) = channel().unwrap();
        let start = Instant::now();
        assert_eq!(
            sleeper.sleep(Some(&receiver), Duration::from_millis(50)),
            Woken::Time
        );
        assert!(start.elapsed() >= Duration::from_millis(50));

        let ring = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            sender.send(NetEvent::Disconnected("bye".into())).unwrap();
            sender
        });
        let start = Instant::now();
        let woken = sleeper.sleep(Some(&receiver), Duration::from_secs(60));
        assert_eq!(woken, Woken::Network);
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "woken by the event"
        );
        assert!(matches!(
            receiver.try_recv(),
            Some(NetEvent::Disconnected(_))
        ));
        let _sender = ring.join().unwrap();
        assert_eq!(
            sleeper.sleep(Some(&receiver), Duration::ZERO),
            Woken::Time,
            "the ring was silenced with the event taken"
        );
    }
}
