#!/bin/sh
# Give every internal symbol of libdomino the internal prefix (issue 19):
# renames each OLD of scripts/internal-prefix.map to its NEW, whole words
# only, in the C sources of src/ tests/ bench/ fuzz/ cli/ examples/.
#   scripts/internal-prefix.sh [--check] [MAP]
# --check changes nothing and exits 1 if some file still needs a rename.
#
# Safe to re-run on a tree that merged other branches (the lead does):
# - idempotent: a NEW is never an OLD, and OLD inside NEW is not a whole word;
# - string and character literals are never changed (outputs stay byte-equal);
#   comments are, so they keep naming the function they mean;
# - a member (`.OLD`, `->OLD`) is not a symbol and is left alone;
# - in a file that defines its own `static` OLD, OLD means that static one
#   there and the file's OLD is left alone;
# - it refuses a map that renames a name some include/domino header
#   declares, or whose NEW is also an OLD.
# Then `ctest -L abi` says whether any internal symbol still lacks the prefix.
set -eu
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
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
	my $out = $text;
	$out =~ s{(/\*.*?\*/|//[^\n]*)|($lit)|((?:\.|->)?\s*[A-Za-z_]\w*)}{
		defined $1 ? $ids->($1) : defined $2 ? $2 : do { my $t = $3; $t =~ /^(\.|->)/ ? $t : $ids->($t) }
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
