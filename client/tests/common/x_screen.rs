//! An Xvfb server of a test's own, for the tests that act on the window from outside: keys and
//! the pointer with `xdotool`, the screen grabbed with `xwd`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// An Xvfb server of its own, stopped when dropped.
pub struct Screen {
    server: Child,
    display: String,
}

impl Screen {
    pub fn start() -> Screen {
        let mut server = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1366x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut line = String::new();
        BufReader::new(server.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("Xvfb names its display");
        Screen {
            server,
            display: format!(":{}", line.trim()),
        }
    }

    pub fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("DISPLAY", &self.display);
        command
    }

    /// The client on this screen with its embedded server's data in `dir`/data and its
    /// `PARLOR_HOME` in `dir`/home, quiet for as long as a test needs (`--quiet-frame-seconds
    /// 600`), with `args` more; its output is dropped.
    pub fn client_in(&self, dir: &Path, args: &[&str]) -> Child {
        self.command(super::CLIENT)
            .args(["--data".as_ref(), dir.join("data").as_os_str()])
            .args(["--quiet-frame-seconds", "600"])
            .args(args)
            .env("PARLOR_HOME", dir.join("home"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the client starts")
    }

    /// The screen's pixels as `xwd` dumps them (its header skipped), row by row.
    pub fn grab(&self) -> Grab {
        let output = self
            .command("xwd")
            .args(["-root", "-silent"])
            .output()
            .unwrap();
        assert!(output.status.success(), "xwd: {output:?}");
        Grab::parse(&output.stdout)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// An `xwd` dump: pixels of `bytes_per_pixel` in rows of `bytes_per_line`.
#[derive(PartialEq)]
pub struct Grab {
    bytes_per_pixel: usize,
    bytes_per_line: usize,
    pub pixels: Vec<u8>,
}

impl Grab {
    /// The dump's header is 25 big-endian 32-bit fields, then the window's name (to
    /// `header_size`), then `ncolors` colour entries of 12 bytes, then the pixels.
    pub fn parse(dump: &[u8]) -> Grab {
        let field = |i: usize| u32::from_be_bytes(dump[i * 4..i * 4 + 4].try_into().unwrap());
        let (header_size, height, bits_per_pixel) = (field(0), field(5), field(11));
        let (bytes_per_line, ncolors) = (field(12) as usize, field(19) as usize);
        let start = header_size as usize + ncolors * 12;
        Grab {
            bytes_per_pixel: bits_per_pixel as usize / 8,
            bytes_per_line,
            pixels: dump[start..start + bytes_per_line * height as usize].to_vec(),
        }
    }

    /// The pixels of `rect` (x, y, width, height), row by row.
    pub fn region(&self, rect: [f32; 4]) -> Vec<u8> {
        let [x, y, w, h] = rect.map(|v| v as usize);
        (y..y + h)
            .flat_map(|row| {
                let start = row * self.bytes_per_line + x * self.bytes_per_pixel;
                self.pixels[start..start + w * self.bytes_per_pixel].to_vec()
            })
            .collect()
    }
}
