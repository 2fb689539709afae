//! The PuzzleScript language: parser, compiler and turn engine.
