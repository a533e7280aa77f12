//! A trivial program: its only job is to make Cargo lock the dependencies the evaluation asks about.

fn main() {
    let value = serde_json::json!({ "ok": true });
    println!("{}", value);
}
