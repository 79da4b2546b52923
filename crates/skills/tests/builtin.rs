//! The built-in library loads without a single diagnostic.

use nofxi_skills::Library;

#[test]
fn builtin_library_has_no_diagnostics() {
    if let Err(e) = Library::builtin() {
        panic!("built-in skills do not lint:\n{e}");
    }
}
