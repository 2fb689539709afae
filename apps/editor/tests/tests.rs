//! The editor driven as a person would: by widget labels, clicks on board cells and key presses,
//! with egui_kittest (headless: no display, no GPU).

mod common;
mod debug;
mod edit;
mod estimate;
mod export;
mod find;
mod generate;
mod gif;
mod level_switch;
mod pack;
mod play;
mod puzzlescript;
mod sokoban;
mod sound;
mod source;
mod workbench;
mod workbench_fixes;
mod workbench_loop;
