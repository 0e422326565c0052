use morrigo_diag::SourceFile;
use morrigo_engine::AnyMachine;
use std::sync::Arc;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Arc::new(morrigo_rules::load_rules(&args[1]).unwrap());
    let any = AnyMachine::new(rules).unwrap();
    match morrigo_record::replay(&any, &args[2], &SourceFile::new("--moves", args[2].clone())) {
        Ok(t) => { println!("{}", t.to_text()); println!("{}", t.to_json()); }
        Err(e) => { println!("{e}\n---\n{}", e.transcript.to_text()); }
    }
}
