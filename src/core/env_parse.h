// Small, allocation-free parsers for environment variable values. Each
// returns false on a malformed value and then fills `why` with a short reason
// that the caller puts into its one warning.
#pragma once

#include "base.h"

namespace kite {

// Skips blanks (space, tab, newline) and returns the first non-blank.
const char* env_skip_blanks(const char* s);
// True when s is nothing but blanks.
bool env_blank(const char* s);
// Case-insensitive: does s start with word, followed by something that is not
// a letter? On success *end points just past the word.
bool env_word(const char* s, const char* word, const char** end);
// Whole value (blanks around allowed) equals word, case-insensitively.
bool env_is(const char* s, const char* word);

// A decimal integer in [lo, hi], blanks around allowed, nothing else.
bool env_parse_long(const char* s, long lo, long hi, long* out, const char** why);
// Leading integer of s (after blanks); *end points after its digits. No range
// check beyond fitting a long.
bool env_parse_long_prefix(const char* s, long* out, const char** end);
// true or false, in any case; nothing else (not 1/0, yes/no), as libgomp.
bool env_parse_bool(const char* s, int* out, const char** why);
// A size: digits, blanks, optional B/K/M/G suffix (default K), in bytes.
bool env_parse_size(const char* s, long* bytes, const char** why);

// Reads variable `name`: null when unset.
const char* env_get(const char* name);

}  // namespace kite
