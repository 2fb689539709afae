//! File → Export playable game…: the game being edited as one web page (issue 62).

use crate::common::{editor, fixtures};
use egui_kittest::kittest::Queryable;

#[test]
fn file_export_playable_game_writes_the_page_or_says_how_to_build_the_player() {
    let dir = std::env::temp_dir().join(format!("tessera-editor-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("chorus.txt");
    std::fs::copy(fixtures().join("games/chorus.txt"), &game).unwrap();
    let mut h = editor();
    h.state_mut().open(&game);
    h.run();
    // A game of several levels asks which to open first.
    if let Some(open) = h.query_by_label("Open level") {
        open.click();
        h.run();
    }
    h.get_by_label("File").click();
    h.run();
    assert!(h.query_by_label("Play in browser").is_some());
    h.get_by_label("Export playable game…").click();
    h.run();
    h.get_by_label("Save file").click();
    h.run();
    let page = dir.join("game.html");
    if tessera_web::wasm_path().is_file() {
        let html = std::fs::read_to_string(&page).expect("the page is written");
        assert!(html.contains("<title>Warehouse chorus</title>"));
        assert!(html.contains("window.TESSERA_GAME"));
        assert!(h.state().error().is_none(), "{:?}", h.state().error());
    } else {
        assert!(!page.exists());
        let error = h.state().error().unwrap_or_default().to_string();
        assert!(error.contains("crates/web/build.sh"), "{error}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
