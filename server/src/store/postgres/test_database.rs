//! A fresh database for one test, on the PostgreSQL server that `PARLOR_TEST_POSTGRES` names
//! (`scripts/cluster_services.sh` starts one; `.ci/run` does so in CI). Without it the test is
//! skipped with a note, except in CI, where that is a failure. The database is dropped when
//! the test ends, also when it fails. For the tests only (the server's own and its
//! integration tests); nothing in the server uses it.

use tokio_postgres::NoTls;

use super::PgStore;
use crate::store::Store;

pub struct TestDatabase {
    /// The server's address with the database the role may always reach (`postgres`).
    admin_url: String,
    name: String,
}

impl TestDatabase {
    /// A new empty database, or `None` (with a note) when no server is named.
    pub fn create() -> Option<TestDatabase> {
        let Ok(admin_url) = std::env::var("PARLOR_TEST_POSTGRES") else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must set PARLOR_TEST_POSTGRES (see .ci/run)"
            );
            eprintln!(
                "PostgreSQL test skipped: PARLOR_TEST_POSTGRES is not set \
                 (eval \"$(scripts/cluster_services.sh start)\")"
            );
            return None;
        };
        let name = format!("parlor_test_{}", parlor_shared::identity::random_hex(12));
        execute(&admin_url, &format!("CREATE DATABASE {name}"));
        Some(TestDatabase { admin_url, name })
    }

    /// The database's address.
    pub fn url(&self) -> String {
        match self.admin_url.rsplit_once('/') {
            Some((server, _)) => format!("{server}/{}", self.name),
            None => panic!("PARLOR_TEST_POSTGRES names no database: {}", self.admin_url),
        }
    }

    /// A store in it.
    pub fn store(&self) -> Store {
        Store::with(PgStore::connect(&self.url()).expect("the test database opens"))
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        execute(
            &self.admin_url,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// Runs `statement` on the database at `url`, outside any store: on a thread of its own, so
/// that async tests may call it too.
pub fn execute(url: &str, statement: &str) {
    let (url, statement) = (url.to_string(), statement.to_string());
    std::thread::spawn(move || execute_here(&url, &statement))
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
}

fn execute_here(url: &str, statement: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, NoTls)
            .await
            .unwrap_or_else(|error| panic!("cannot reach the test database: {error}"));
        let connection = tokio::spawn(connection);
        client
            .batch_execute(statement)
            .await
            .unwrap_or_else(|error| panic!("{statement}: {error}"));
        drop(client);
        let _ = connection.await;
    });
}
