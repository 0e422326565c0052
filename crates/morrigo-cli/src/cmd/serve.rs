use crate::fail::{Failure, Outcome};
use clap::Args;
use morrigo_diag::Diagnostic;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

/// Serve the web playground: edit a ruleset, see the board, play, compare.
///
/// A local web server whose page (embedded in the binary; no network needed)
/// has a ruleset editor checked as you type, the compiled summary, the board
/// to play on by clicking against a person or any built-in agent, and a
/// compare panel. The JSON API it uses is under /api/ (described at
/// /api/openapi.yaml). With RULESET_DIR, its .yaml files are listed and the
/// editor saves into it. Stop it with Ctrl-C.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo serve                         http://127.0.0.1:8080/
  morrigo serve my-rulesets --port 9000
  morrigo serve --port 0                 (any free port; the address is printed)
  morrigo solve three-mens-morris --db t3 && morrigo serve --db t3
                                        (values of every position and move)")]
pub struct ServeArgs {
    /// Directory of ruleset files to list, open and save into.
    #[arg(value_name = "RULESET_DIR")]
    pub dir: Option<PathBuf>,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (the default serves this machine only). Any
    /// other address prints a warning: the API has no authentication.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// A solved database (`morrigo solve RULESET --db DIR`): the page shows
    /// the value of each position of its rules and of every legal move, and
    /// `perfect` plays from it. Read only; its units are held in at most a
    /// third of the memory available.
    #[arg(long, value_name = "DIR")]
    pub db: Option<PathBuf>,
}

pub fn run(args: ServeArgs) -> Outcome {
    if let Some(dir) = &args.dir {
        if !dir.is_dir() {
            return Err(Failure::game(
                Diagnostic::new(format!("`{}` is not a directory", dir.display()))
                    .expected("a directory of ruleset .yaml files"),
            ));
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::game(Diagnostic::new(format!("cannot start the server: {e}"))))?;
    let addr = SocketAddr::new(args.host, args.port);
    if !args.host.is_loopback() {
        eprintln!("{}", exposure_warning(addr, args.dir.as_deref()));
    }
    let mut state = morrigo_web::AppState::new(args.dir);
    if let Some(db) = &args.db {
        state = state.with_database(db).map_err(|why| {
            Failure::game(
                Diagnostic::new(why).expected("a directory of `morrigo solve RULESET --db DIR`"),
            )
        })?;
        let (limit, source) = morrigo_engine::memory::default_limit();
        morrigo_engine::memory::set_limit(limit, source);
    }
    runtime
        .block_on(morrigo_web::serve(state, addr, |at| {
            // One line, flushed: scripts wait for it to learn the port.
            println!("morrigo playground: http://{at}/");
        }))
        .map_err(|e| {
            Failure::game(
                Diagnostic::new(format!("cannot serve on {addr}: {e}"))
                    .expected("a free port (`--port 0` picks one)"),
            )
        })
}

/// What `--host` other than loopback exposes, said before serving.
fn exposure_warning(addr: SocketAddr, dir: Option<&std::path::Path>) -> String {
    let files = match dir {
        Some(d) => format!("reads and writes the ruleset files in `{}`", d.display()),
        None => "runs searches and compares on this machine".to_string(),
    };
    format!(
        "warning: serving on {addr}, which other machines can reach: the playground's API has no \
         authentication, and anyone who can connect {files} (requests must still name this \
         server's address in `Host`; serve on 127.0.0.1 to keep it to this machine)"
    )
}
