//! `tessera sound` (issue 35): one seed to the reference's WAV, a game's sounds listed and
//! checked, and bad input.

use crate::{scratch, stderr, tessera};

const CHORUS: &str = "fixtures/games/chorus.txt";

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_seed_is_written_as_the_wav_the_library_makes() {
    let dir = scratch("sound-seed");
    let path = dir.join("jump.wav");
    let out = tessera(&["sound", "142315", "--wav", path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("142315: Jump (jump), "), "{}", stdout(&out));
    let written = std::fs::read(&path).unwrap();
    let sound = tessera_sound::Sound::new(&"142315".parse().unwrap()).unwrap();
    assert_eq!(written, sound.wav());
    assert_eq!(&written[..4], b"RIFF");
    assert_eq!(u32::from_le_bytes([written[24], written[25], written[26], written[27]]), 5512);
}

#[test]
fn a_game_lists_its_thirty_sounds_and_writes_them() {
    let dir = scratch("sound-game");
    let out = tessera(&["sound", CHORUS, "--wav-dir", dir.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.ends_with("30 sounds, 0 bad\n"), "{text}");
    assert!(text.contains("sfx1 "), "{text}");
    assert!(text.lines().any(|l| l.contains("crate action") && l.contains("Bird (birdSound)")), "{text}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 30, "one WAV a distinct seed");
}

#[test]
fn bad_seeds_and_games_are_refused_with_what_is_wrong() {
    // A game whose seed has too many digits to be a number: listed, then exit 1.
    let dir = scratch("sound-bad");
    let game = dir.join("huge.txt");
    let source = std::fs::read_to_string(crate::workspace().join(CHORUS)).unwrap();
    let line = source.lines().find(|l| l.starts_with("startlevel ")).unwrap();
    std::fs::write(&game, source.replace(line, &format!("startlevel {}", "9".repeat(400)))).unwrap();
    let out = tessera(&["sound", game.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("BAD: the sound seed 999"), "{}", stdout(&out));
    assert!(stdout(&out).ends_with("30 sounds, 1 bad\n"), "{}", stdout(&out));
    assert!(stderr(&out).contains("too large"), "{}", stderr(&out));
    // A seed with --wav-dir, a game with --wav, and a file that is not there.
    let out = tessera(&["sound", "123", "--wav-dir", "x"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--wav-dir goes with a game"), "{}", stderr(&out));
    let out = tessera(&["sound", CHORUS, "--wav", "x.wav"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = tessera(&["sound", "no-such-game.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no-such-game.txt"), "{}", stderr(&out));
}
