#!/bin/sh
# Every errno the library returns has one entry in the error table of
# include/domino/context.h and a name in dmn_errno_name (src/core/errors.c).
# An errno counts as returned when the code of src/ (comments and strings
# left out) writes it as -ECODE anywhere but a `case` label (those map a
# callback's error, as the SCMI status table does).
#   errnos.sh [ROOT]
set -eu
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
exec perl -e '
use strict; use warnings;
my $lit = qr{"(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27};
# No internal status is spelt as an errno: the "skip this entry" of the loader
# is DT_SKIP (src/dt/dt_internal.h), outside the errno range.
my %internal = ();
my (%used, %where);
for my $f (sort split /\n/, `find src -name "*.[ch]"`) {
	open(my $h, "<", $f) or die "$f: $!\n"; my $t = do { local $/; <$h> };
	$t =~ s{(/\*.*?\*/|//[^\n]*|$lit)}{my $s = $1; $s =~ s/[^\n]/ /g; $s}gse;
	my $n = 0;
	for my $line (split /\n/, $t) {
		$n++;
		next if $line =~ /\bcase\s+-E/;
		while ($line =~ /-(E[A-Z0-9]+)\b/g) { $used{$1}++; $where{$1} //= "$f:$n"; }
	}
}
open(my $c, "<", "include/domino/context.h") or die; my $ctx = do { local $/; <$c> };
open(my $e, "<", "src/core/errors.c") or die; my $err = do { local $/; <$e> };
my $bad = 0;
for my $code (sort keys %used) {
	next if $internal{$code};
	if ($ctx !~ /^ \*   -\Q$code\E\s/m) { print "$where{$code}: -$code is in no line of the error table of include/domino/context.h\n"; $bad++; }
	if ($err !~ /\{\Q$code\E, "\Q$code\E"/) { print "$where{$code}: -$code has no name in src/core/errors.c\n"; $bad++; }
}
print scalar(keys %used), " errnos returned by src/: ", ($bad ? "$bad problems" : "each in the table of context.h and named"), "\n";
exit($bad ? 1 : 0);
'
