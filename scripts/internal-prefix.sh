#!/bin/sh
# Give every internal symbol of libdomino the internal prefix (issue 19):
# renames each OLD of scripts/internal-prefix.map to its NEW, whole words
# only, in the C sources of src/ tests/ bench/ fuzz/ cli/ examples/.
#   scripts/internal-prefix.sh [--check] [MAP]
#   scripts/internal-prefix.sh --add-from LIBDOMINO.a [MAP]
# --check changes nothing and exits 1 if some file still needs a rename.
# --add-from appends to the map every external symbol of the built static
# library that no public header declares and that lacks the prefix (a
# function another branch added), as OLD dmn__OLD; then run it again.
#
# Safe to re-run on a tree that merged other branches (the lead does):
# - idempotent: a NEW is never an OLD, and OLD inside NEW is not a whole word;
# - string and character literals are never changed (outputs stay byte-equal);
#   comments are, so they keep naming the function they mean;
# - a member (`.OLD`, `->OLD`, or declared in a struct or union body) and a
#   tag (`struct OLD`) are not symbols and are left alone;
# - in a file that defines its own `static` OLD, OLD means that static one
#   there and the file's OLD is left alone;
# - it refuses a map that renames a name some include/domino header
#   declares, or whose NEW is also an OLD.
# Then `ctest -L abi` says whether any internal symbol still lacks the prefix.
set -eu
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
if [ "${1:-}" = --add-from ]; then
	lib=${2:-}
	map=${3:-scripts/internal-prefix.map}
	[ -f "$lib" ] && [ -f "$map" ] || { echo "usage: $0 --add-from LIBDOMINO.a [MAP]" >&2; exit 2; }
	ctags=$(command -v ctags-universal || command -v ctags)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	"$ctags" -x --kinds-C=px --language-force=C include/domino/*.h | awk '{print $1}' | sort -u >"$tmp/public"
	awk '!/^#/ && NF == 2 {print $1}' "$map" | sort -u >"$tmp/mapped"
	nm --defined-only --extern-only "$lib" | awk 'NF == 3 {print $3}' | grep -v '^__' | grep -v '^dmn__' |
		sort -u | comm -23 - "$tmp/public" | comm -23 - "$tmp/mapped" >"$tmp/new"
	awk '{n = $1; if (n ~ /^scmi__/) n = "scmi_" substr(n, 7); else if (n ~ /^dmn_/) n = substr(n, 5)
		print $1, "dmn__" n}' "$tmp/new" >>"$map"
	echo "internal-prefix: $(wc -l <"$tmp/new") name(s) added to $map" >&2
	exit 0
fi
map=${1:-scripts/internal-prefix.map}
[ -f "$map" ] || { echo "$0: no map $map" >&2; exit 2; }
files=$(find src tests bench fuzz cli examples -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | sort)
# shellcheck disable=SC2086
CHECK=$check MAP=$map exec perl -e '
use strict; use warnings;
my (%new, %isnew);
open(my $m, "<", $ENV{MAP}) or die "$ENV{MAP}: $!\n";
while (<$m>) {
	s/#.*//; next unless /\S/;
	my @f = split;
	die "$ENV{MAP}:$.: expected OLD NEW\n" unless @f == 2;
	my ($old, $new) = @f;
	die "$ENV{MAP}:$.: $old or $new is not an identifier\n" unless "$old $new" =~ /^[A-Za-z_]\w* [A-Za-z_]\w*$/;
	die "$ENV{MAP}:$.: $old is renamed twice\n" if exists $new{$old};
	$new{$old} = $new; $isnew{$new} = 1;
}
for (keys %new) { die "$ENV{MAP}: $_ is both a NEW and an OLD (a chain would not be idempotent)\n" if $isnew{$_}; }
# Public names are the contract (DESIGN 5): never renamed here.
for my $h (glob("include/domino/*.h")) {
	open(my $f, "<", $h) or die "$h: $!\n"; local $/; my $t = <$f>;
	for my $old (keys %new) { die "$ENV{MAP}: $old is public ($h)\n" if $t =~ /\b\Q$old\E\s*\(/ || $t =~ /\bextern\b[^;]*\b\Q$old\E\s*;/; }
}
my $lit = qr{"(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27};
my $changed = 0;
for my $file (@ARGV) {
	open(my $f, "<", $file) or die "$file: $!\n";
	my $text = do { local $/; <$f> }; close $f;
	# The code alone (comments and literals blanked) to find static definitions.
	(my $code = $text) =~ s{(/\*.*?\*/|//[^\n]*|$lit)}{my $s = $1; $s =~ s/[^\n]/ /g; $s}gse;
	my %skip;
	for my $old (keys %new) {
		next unless $code =~ /\b\Q$old\E\b/;
		$skip{$old} = 1 if $code =~ /\bstatic\b[^;{}()]*?\b\Q$old\E\s*[(\[=;,]/s;
	}
	my $id = sub {
		my ($pre, $name) = @_;
		return $pre . $name if $pre ne "" || !exists $new{$name} || $skip{$name};
		return $new{$name};
	};
	my $ids = sub { my $s = shift; $s =~ s/(\.|->|)\b([A-Za-z_]\w*)\b/$id->($1, $2)/ge; $s };
	# Braces are tracked so that a struct or union body, which declares
	# members (never an internal symbol), is left as it is.
	my @braces;
	my $out = $text;
	$out =~ s{(/\*.*?\*/|//[^\n]*)|($lit)|(\b(?:struct|union)\b\s*(?:[A-Za-z_]\w*\s*)?\{)|([{}])|((?:(?:\.|->)\s*|\b(?:struct|union|enum)\s+)?[A-Za-z_]\w*)}{
		defined $1 ? $ids->($1) : defined $2 ? $2
		: defined $3 ? do { push @braces, 1; $3 }
		: defined $4 ? do { $4 eq chr(123) ? push(@braces, 0) : pop(@braces); $4 }
		: do { my $t = $5; ($t =~ /^(\.|->|struct|union|enum)/ || (@braces && $braces[-1])) ? $t : $ids->($t) }
	}gse;
	next if $out eq $text;
	$changed++;
	if ($ENV{CHECK}) { print "$file: needs the internal prefix\n"; next; }
	open(my $w, ">", "$file.tmp") or die "$file.tmp: $!\n"; print $w $out; close $w or die "$file: $!\n";
	rename("$file.tmp", $file) or die "$file: $!\n";
}
print STDERR "internal-prefix: $changed file(s) ", ($ENV{CHECK} ? "to change" : "changed"), "\n";
exit($ENV{CHECK} && $changed ? 1 : 0);
' $files
