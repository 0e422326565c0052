use crate::fail::Outcome;
use clap::Args;
use clap_complete::Shell;

/// Print a shell completion script (bash, zsh, fish, elvish, powershell)
///
/// It completes commands, options and the values of options that take a
/// fixed set. Load it in the shell's start-up file; see docs/src/install.md
/// ("Install").
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo completions bash > ~/.local/share/bash-completion/completions/morrigo
  morrigo completions zsh > ~/.zfunc/_morrigo
  morrigo completions fish > ~/.config/fish/completions/morrigo.fish")]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Write the script for `cli` (the whole command tree) to stdout.
pub fn run(args: CompletionsArgs, mut cli: clap::Command) -> Outcome {
    let name = cli.get_name().to_string();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cli, name, &mut out);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &out)?;
    Ok(())
}
