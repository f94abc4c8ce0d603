//! `sandbox`: everything needed to try every flow of paybridge in a real
//! browser, on one local address. The server is the crate's library
//! (`paybridge_sandbox`); this is its command line.

use std::process::ExitCode;

use paybridge_sandbox::{self as sandbox, Command, Config};

#[tokio::main]
async fn main() -> ExitCode {
    let config = match Config::from_args(std::env::args().skip(1), |k| std::env::var(k).ok()) {
        Ok(Command::Run(c)) => c,
        Ok(Command::Help) => {
            print!("{}", sandbox::config::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("sandbox: {e}");
            return ExitCode::from(2);
        }
    };
    for (dir, what) in [(&config.www, "the demo pages"), (&config.pkg, "the npm package (make pkg)")] {
        if !dir.is_dir() {
            eprintln!("sandbox: {} is not a directory; {what} will answer 404", dir.display());
        }
    }
    let listener = match tokio::net::TcpListener::bind((config.host, config.port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("sandbox: cannot listen on {}:{}: {e}", config.host, config.port);
            return ExitCode::FAILURE;
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(config.port);
    println!("paybridge sandbox on http://{}:{port}", config.host);
    println!("  demo pages: http://{}:{port}/   what is simulated: http://{}:{port}/sim   Ctrl-C stops it", config.host, config.host);
    match sandbox::serve(listener, config, sandbox::shutdown_signal()).await {
        Ok(()) => {
            println!("paybridge sandbox stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sandbox: {e}");
            ExitCode::FAILURE
        }
    }
}
