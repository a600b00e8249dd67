#!/usr/bin/perl
# An independent EPP client (Debian's libnet-epp-perl) driving the test registry through the
# panel's scenarios, so that the registry is not only checked against the panel's own client.
# Arguments: host port client-cert client-key ca-file client-id password. Prints one line per
# step: "<step> <result code>" (and the data the step read), for the test to check.
use strict;
use warnings;
use Net::EPP::Simple;
use Net::EPP::Frame::Command::Poll::Req;
use Net::EPP::Frame::Command::Logout;

my ($host, $port, $cert, $key, $ca, $user, $pass) = @ARGV;
my $epp = Net::EPP::Simple->new(
	host => $host, port => $port, cert => $cert, key => $key,
	verify => 1, ca_file => $ca, user => $user, pass => $pass, timeout => 20,
);
die "login: $Net::EPP::Simple::Error\n" unless $epp;
print "login $Net::EPP::Simple::Code\n";

# following the name servers and contacts: host:info and contact:info as well
sub names { my $info = shift; return join(',', map { ref($_) ? $_->{name} : $_ } @{$info->{ns} || []}); }
my $info = $epp->domain_info('perl.es', undef, 1);
print "domain_info $Net::EPP::Simple::Code ", names($info), " ", (ref($info->{registrant}) ? $info->{registrant}->{email} : ''), "\n";

$epp->create_host({ name => 'ns1.perl.es', addrs => [ { ip => '192.0.2.53', version => 'v4' } ] });
print "create_host $Net::EPP::Simple::Code\n";

$epp->create_host({ name => 'ns2.perl.es' });
print "create_host_without_glue $Net::EPP::Simple::Code\n";

$epp->update_domain({ name => 'perl.es', add => { ns => [ 'ns1.perl.es' ] } });
print "update_domain $Net::EPP::Simple::Code\n";

$epp->delete_host('ns1.perl.es');
print "delete_linked_host $Net::EPP::Simple::Code\n";

$info = $epp->domain_info('perl.es', undef, 1);
print "domain_info_after $Net::EPP::Simple::Code ", names($info), "\n";

# the result code of a frame sent as it is (Net::EPP::Simple has no poll, and its logout says no code)
sub code_of { return shift->getElementsByTagNameNS('urn:ietf:params:xml:ns:epp-1.0', 'result')->shift->getAttribute('code'); }
print "poll ", code_of($epp->request(Net::EPP::Frame::Command::Poll::Req->new)), "\n";
print "logout ", code_of($epp->request(Net::EPP::Frame::Command::Logout->new)), "\n";
$epp->{authenticated} = 0;
$epp->logout;
