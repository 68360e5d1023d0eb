/* The mapping parser: one test per error message, checking the message and
 * the line; what good files turn into; and finding shipped mappings. */
#include <string.h>

#include <glib/gstdio.h>

#include "mapping/mapping-file.h"
#include "mapping/mapping-parse.h"
#include "testutil.h"

/* A valid head for files whose mistake comes later. */
#define HEAD "[mapping]\nformat = 1\n"
#define OUT  "[output o]\nkind = osc\ntarget = osc.udp://127.0.0.1:7000\n"
/* 64 values, to go past the limit of 128. */
#define USERS_8  "users users users users users users users users "
#define USERS_64 USERS_8 USERS_8 USERS_8 USERS_8 USERS_8 USERS_8 USERS_8 USERS_8
/* A name one character too long for a TUIO source. */
#define NAME_65 "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
/* A TUIO output to which a test appends keys. */
#define TUIO "[output t]\nkind = tuio\n"
/* A WebSocket output to which a test appends keys. */
#define WS "[output w]\nkind = websocket\n"
/* A complete rule to which a test appends one key. */
#define RULE(scope) "[rule r]\noutput = o\nfor = " scope "\naddress = /a\n"

typedef struct {
	const char *name;
	const char *text;
	const char *message; /* after "test.map:" */
} ErrorCase;

static const ErrorCase error_cases[] = {
	/* cutting the text into sections and entries */
	{ "not-utf8", HEAD "description = caf\xe9\n",
	  "3: not UTF-8 text (a binary file, or another encoding?)" },
	{ "nul-byte", HEAD "description = a\0b\n",
	  "3: not UTF-8 text (a binary file, or another encoding?)" },
	{ "bom-then-error", "\xef\xbb\xbf[mapping]\nformat = 2\n",
	  "2: [mapping] format: this skelbridge reads format 1; the file is format 2" },
	{ "carriage-return", "[mapping]\r\nformat = 1\n",
	  "1: the line ends in a carriage return: save the file with Unix line endings" },
	{ "trailing-whitespace", HEAD "description = x \n", "3: trailing whitespace" },
	{ "not-a-line", HEAD "description\n",
	  "3: expected [SECTION], 'key = value', a # comment or a blank line, got 'description'" },
	{ "header-unclosed", HEAD "[rule r\n", "3: '[rule r': a section header ends with ']'" },
	{ "header-junk", HEAD "[rule r] # the rule\n",
	  "3: junk after the section header: ' # the rule'" },
	{ "unknown-section", HEAD "[cursor c]\n",
	  "3: unknown section [cursor]; sections are [mapping], [output NAME], [rule NAME], "
	  "[names NAME], [zone NAME] and [gestures]" },
	{ "mapping-with-name", "[mapping main]\n", "1: [mapping] takes no name" },
	{ "section-without-name", HEAD "[rule]\n", "3: [rule] needs a name: [rule NAME]" },
	{ "bad-section-name", HEAD "[rule left hand]\n",
	  "3: bad name 'left hand' in [rule ...]: use letters, digits, '_' and '-'" },
	{ "duplicate-section", HEAD OUT "[output o]\n",
	  "6: duplicate section [output o] (first at line 3)" },
	{ "key-before-section", "format = 1\n", "1: 'format' comes before any section" },
	{ "duplicate-key", HEAD "format = 1\n",
	  "3: [mapping] format: duplicate key (first at line 2)" },
	{ "no-value", HEAD OUT "bundle =\n", "6: [output o] bundle: no value" },
	/* the file as a whole */
	{ "empty-file", "", "1: a mapping file starts with a [mapping] section" },
	{ "mapping-not-first", "# x\n" OUT HEAD,
	  "2: a mapping file starts with a [mapping] section" },
	{ "empty-section", HEAD "[names n]\n\n", "3: [names n] is empty" },
	{ "no-rules", "# x\n" HEAD OUT,
	  "2: no [rule NAME] section and no TUIO output: the mapping would send nothing" },
	{ "missing-key", HEAD "[output o]\nkind = osc\n", "3: [output o]: missing key 'target'" },
	{ "missing-for", HEAD OUT "[rule r]\noutput = o\n", "6: [rule r]: missing key 'for'" },
	{ "missing-events", HEAD OUT RULE("event"), "6: [rule r]: missing key 'events'" },
	{ "unknown-key", HEAD OUT RULE("frame") "rate = 30\n",
	  "10: [rule r] rate: unknown key; keys are output, for, address, args, user, zone, "
	  "hold, on_change, refresh and max_rate" },
	{ "key-not-for-scope", HEAD OUT RULE("event") "events = new_user\non_change = 0\n",
	  "11: [rule r] on_change: not for rules with for = event" },
	/* [mapping] */
	{ "format-not-a-number", "[mapping]\nformat = one\n",
	  "2: [mapping] format: expected a whole number, got 'one'" },
	{ "format-newer", "[mapping]\nformat = 2\n",
	  "2: [mapping] format: this skelbridge reads format 1; the file is format 2" },
	{ "user-ids", HEAD "user_ids = lowest\n",
	  "3: [mapping] user_ids: expected unique or slot, got 'lowest'" },
	/* [output] */
	{ "output-kind", HEAD "[output o]\nkind = midi\n",
	  "4: [output o] kind: expected osc, tuio or websocket, got 'midi'" },
	{ "output-bundle", HEAD OUT "bundle = message\n",
	  "6: [output o] bundle: expected frame, user or none, got 'message'" },
	{ "output-max-packet", HEAD OUT "max_packet = 70000\n",
	  "6: [output o] max_packet: expected a whole number from 64 to 65507, got '70000'" },
	{ "target-url", HEAD "[output o]\nkind = osc\ntarget = udp://127.0.0.1:7000\n",
	  "5: [output o] target: expected osc.udp://HOST:PORT, osc.tcp://HOST:PORT or "
	  "ws://ADDRESS:PORT/PATH, got 'udp://127.0.0.1:7000'" },
	{ "target-port", HEAD "[output o]\nkind = osc\ntarget = osc.udp://127.0.0.1:70000\n",
	  "5: [output o] target: the port must be a number from 1 to 65535, got '70000'" },
	{ "ttl-over-tcp",
	  HEAD "[output o]\nkind = osc\ntarget = osc.tcp://239.1.2.3:7000\nttl = 2\n",
	  "6: [output o] ttl: only for UDP multicast targets" },
	{ "ttl-unicast", HEAD OUT "ttl = 2\n",
	  "6: [output o] ttl: only for multicast targets (224.0.0.0 to 239.255.255.255), and "
	  "127.0.0.1 is not one" },
	{ "interface-name",
	  HEAD "[output o]\nkind = osc\ntarget = osc.udp://239.1.2.3:7000\ninterface = eth 0\n",
	  "6: [output o] interface: expected a network interface name such as eth0, got 'eth 0'" },
	/* [names] */
	{ "names-unknown", HEAD "[names n]\nleft_wrist = l_wrist\n",
	  "4: [names n] left_wrist: not a joint or event name (see mappings/README.md for the "
	  "list)" },
	{ "names-unsendable", HEAD "[names n]\nleft_hand = left hand\n",
	  "4: [names n] left_hand: 'left hand' cannot be sent: use letters, digits, '_', '-' and "
	  "'.'" },
	{ "names-clash", HEAD "[names n]\nleft_hand = hand\nright_hand = hand\n",
	  "4: [names n] left_hand: 'hand' is also the name of right_hand" },
	{ "names-clash-builtin", HEAD "[names n]\nnew_user = lost_user\n",
	  "4: [names n] new_user: 'lost_user' is also the name of lost_user" },
	/* [rule] for, output, names */
	{ "rule-for", HEAD OUT "[rule r]\nfor = hand\n",
	  "7: [rule r] for: expected frame, user, joint or event, got 'hand'" },
	{ "rule-output", HEAD OUT "[rule r]\noutput = pd\nfor = frame\naddress = /a\n",
	  "7: [rule r] output: no [output pd] in this file" },
	{ "rule-names", HEAD OUT RULE("joint") "names = osceleton\n",
	  "10: [rule r] names: no [names osceleton] in this file" },
	/* [rule] address */
	{ "address-slash", HEAD OUT "[rule r]\nfor = frame\naddress = skel\n",
	  "8: [rule r] address: an OSC address starts with '/'" },
	{ "address-unclosed", HEAD OUT "[rule r]\nfor = joint\naddress = /skel/{joint\n",
	  "8: [rule r] address: '{' without '}'" },
	{ "address-placeholder-scope", HEAD OUT "[rule r]\nfor = user\naddress = /skel/{joint}\n",
	  "8: [rule r] address: {joint} needs for = joint" },
	{ "address-placeholder-unknown", HEAD OUT "[rule r]\nfor = joint\naddress = /skel/{side}\n",
	  "8: [rule r] address: unknown placeholder {side}; placeholders are {user}, {joint}, "
	  "{event}, {hand}, {zone} and {bridge}" },
	{ "address-unopened", HEAD OUT "[rule r]\nfor = joint\naddress = /skel/joint}\n",
	  "8: [rule r] address: '}' without '{'" },
	{ "address-space", HEAD OUT "[rule r]\nfor = joint\naddress = /skel/left hand\n",
	  "8: [rule r] address: only printable ASCII without spaces can be sent in an OSC "
	  "address" },
	{ "address-reserved", HEAD OUT "[rule r]\nfor = joint\naddress = /skel/#1\n",
	  "8: [rule r] address: '#' is not allowed in an OSC address" },
	{ "address-empty-part", HEAD OUT "[rule r]\nfor = joint\naddress = /skel//head\n",
	  "8: [rule r] address: empty address part ('//' or a '/' at the end)" },
	/* [rule] args */
	{ "args-unknown", HEAD OUT RULE("joint") "args = x y w\n",
	  "10: [rule r] args: unknown value 'w'; values are frame, users, user, event, hand, "
	  "zone, zone_users, chosen, joint, x, y, z, u, v, confidence, angle, distance, speed, "
	  "height, qw, qx, qy, qz, yaw, pitch, roll, hand_state and hand_confidence" },
	{ "args-scope", HEAD OUT RULE("frame") "args = user\n",
	  "10: [rule r] args: 'user' needs for = user, joint or event" },
	/* [rule] angle, distance, speed */
	{ "angle-all-joints", HEAD OUT RULE("joint") "args = angle\n",
	  "10: [rule r] args: 'angle' is the angle between two bones, and two bones do not meet "
	  "at head; list the joints to send it for in 'joints': neck, left_shoulder, "
	  "right_shoulder, "
	  "left_elbow, right_elbow, left_hip, right_hip, left_knee and right_knee" },
	{ "angle-hand", HEAD OUT RULE("joint") "args = angle\njoints = left_elbow left_hand\n",
	  "11: [rule r] joints: 'angle' is the angle between two bones, and two bones do not "
	  "meet at left_hand; list the joints to send it for in 'joints': neck, left_shoulder, "
	  "right_shoulder, "
	  "left_elbow, right_elbow, left_hip, right_hip, left_knee and right_knee" },
	{ "distance-without-to", HEAD OUT RULE("joint") "args = distance\n",
	  "10: [rule r] args: 'distance' needs distance_to = JOINT, the joint it is "
	  "measured to" },
	{ "distance-to-alone", HEAD OUT RULE("joint") "distance_to = head\n",
	  "10: [rule r] distance_to: only with 'distance' in args: it names the joint the "
	  "distance is measured to" },
	{ "distance-to-unknown", HEAD OUT RULE("joint") "args = distance\ndistance_to = nose\n",
	  "11: [rule r] distance_to: 'nose' is not a joint (see mappings/README.md for the "
	  "list)" },
	{ "distance-screen",
	  HEAD OUT RULE("joint") "args = distance\ndistance_to = head\n"
	                         "space = screen\n",
	  "12: [rule r] space: 'distance' is a length, in millimetres (space = camera) or "
	  "shoulder widths (space = body), not in screen fractions" },
	{ "speed-screen", HEAD OUT RULE("user") "args = speed\nspace = screen\n",
	  "11: [rule r] space: 'speed' is a length, in millimetres (space = camera) or "
	  "shoulder widths (space = body), not in screen fractions" },
	{ "height-screen", HEAD OUT RULE("joint") "args = height\nspace = screen\n",
	  "11: [rule r] space: 'height' is a length, in millimetres (space = camera) or "
	  "shoulder widths (space = body), not in screen fractions" },
	/* [zone NAME] and the rules that use zones */
	{ "zone-no-box", HEAD OUT "[zone door]\nspace = room\n",
	  "6: [zone door]: missing key 'box'" },
	{ "zone-box", HEAD OUT "[zone door]\nbox = -500:500 0:2000\n",
	  "7: [zone door] box: expected X0:X1 Y0:Y1 Z0:Z1 in millimetres, each from low to high "
	  "(-800:800 -300:900 1200:3500), got '-500:500 0:2000'" },
	{ "zone-space", HEAD OUT "[zone door]\nbox = 0:1 0:1 0:1\nspace = floor\n",
	  "8: [zone door] space: expected room or camera, got 'floor'" },
	{ "zone-joint", HEAD OUT "[zone door]\nbox = 0:1 0:1 0:1\njoint = belly\n",
	  "8: [zone door] joint: 'belly' is not a joint (see mappings/README.md for the list)" },
	{ "zone-margin", HEAD OUT "[zone door]\nbox = 0:1 0:1 0:1\nmargin = -5\n",
	  "8: [zone door] margin: expected millimetres from 0 to 1000, got '-5'" },
	{ "zone-unknown", HEAD OUT RULE("event") "events = zone_enter\nzone = door\n",
	  "11: [rule r] zone: no [zone door] in this file" },
	{ "user-zone-unknown", HEAD OUT RULE("joint") "user = zone:stage\n",
	  "10: [rule r] user: no [zone stage] in this file" },
	{ "zone-users-without-zone", HEAD OUT RULE("frame") "args = zone_users\n",
	  "10: [rule r] args: 'zone_users' needs zone = NAME, the zone whose users it counts" },
	{ "zone-key-alone",
	  HEAD OUT
	  "[zone door]\nbox = 0:1 0:1 0:1\n" RULE("event") "events = new_user\nzone = door\n",
	  "13: [rule r] zone: only with zone_enter or zone_leave events, or zone_users in args" },
	{ "zone-value-without-zone-event",
	  HEAD OUT RULE("event") "events = zone_enter lost_user\nargs = user zone\n",
	  "11: [rule r] args: 'zone' is only for zone events, and lost_user has no zone" },
	{ "zone-placeholder-without-zone-event",
	  HEAD OUT "[rule r]\noutput = o\nfor = event\naddress = /z/{zone}\nevents = new_user\n",
	  "9: [rule r] address: {zone} is only for zone events, and new_user has no zone" },
	/* [rule] choosing the one user */
	{ "hold", HEAD OUT RULE("joint") "user = first\nhold = 61\n",
	  "11: [rule r] hold: expected seconds from 0 to 60, got '61'" },
	{ "hold-without-choice", HEAD OUT RULE("joint") "user = all\nhold = 2\n",
	  "11: [rule r] hold: only with user = first, nearest or raised_hand: it keeps the "
	  "chosen user's role while they are out of view" },
	{ "chosen-without-choice", HEAD OUT RULE("frame") "args = chosen\n",
	  "10: [rule r] args: 'chosen' needs user = first, nearest or raised_hand, the user it "
	  "tells of" },
	{ "frame-user-id", HEAD OUT RULE("frame") "user = 2\nargs = frame\n",
	  "10: [rule r] user: a rule for the frame speaks of no user: it takes first, nearest or "
	  "raised_hand only, to send the one chosen with 'chosen'" },
	{ "angle-range",
	  HEAD OUT RULE("joint") "args = angle\njoints = neck\n"
	                         "angle = 0:180 -> 0:1 clamp sideways\n",
	  "12: [rule r] angle: unknown word 'sideways'; after the range come clamp, invert, "
	  "exp K and int" },
	{ "frame-angle", HEAD OUT RULE("frame") "args = angle\n",
	  "10: [rule r] args: 'angle' needs for = user or joint" },
	{ "args-not-grouped", HEAD OUT RULE("user") "args = x user y\n",
	  "10: [rule r] args: the joint values must stand together: they repeat for every joint" },
	{ "args-too-many", HEAD OUT RULE("frame") "args = " USERS_64 USERS_64 "users\n",
	  "10: [rule r] args: more than 128 values" },
	{ "args-expand-too-many",
	  HEAD OUT RULE("user") "args = x y z u v confidence joint x y user frame\n",
	  "10: [rule r] args: 137 values per message, more than 128" },
	/* [rule] events, joints, confidence */
	{ "events-unknown", HEAD OUT RULE("event") "events = new_user swipe\n",
	  "10: [rule r] events: expected new_user, new_skel, lost_user, zone_enter, zone_leave, "
	  "hand_close, hand_open, "
	  "swipe_left, swipe_right, swipe_up, swipe_down, push, wave, raise_hand, clap or "
	  "arms_out, got 'swipe'" },
	{ "events-twice", HEAD OUT RULE("event") "events = new_user new_user\n",
	  "10: [rule r] events: 'new_user' is listed twice" },
	{ "joints-all-and-more", HEAD OUT RULE("joint") "joints = head all\n",
	  "10: [rule r] joints: 'all' stands alone or not at all" },
	{ "joints-unknown", HEAD OUT RULE("joint") "joints = head l_hand\n",
	  "10: [rule r] joints: unknown joint 'l_hand' (see mappings/README.md)" },
	{ "joints-twice", HEAD OUT RULE("joint") "joints = head neck head\n",
	  "10: [rule r] joints: 'head' is listed twice" },
	{ "joints-glob-matches-nothing", HEAD OUT RULE("joint") "joints = *_hand *_wrist\n",
	  "10: [rule r] joints: '*_wrist' matches no joint (see mappings/README.md)" },
	{ "user", HEAD OUT RULE("joint") "user = 0\n",
	  "10: [rule r] user: expected all, first, nearest, raised_hand, zone:NAME or a user id "
	  "(1 or more), got '0'" },
	{ "user-past-slots", HEAD "user_ids = slot\n" OUT RULE("joint") "user = 7\n",
	  "11: [rule r] user: with user_ids = slot users are numbered 1 to 6, got '7'" },
	{ "space", HEAD OUT RULE("joint") "space = world\n",
	  "10: [rule r] space: expected camera, screen or body, got 'world'" },
	{ "min-confidence", HEAD OUT RULE("joint") "min_confidence = 50%\n",
	  "10: [rule r] min_confidence: expected a number from 0 to 1, got '50%'" },
	/* [rule] ranges and filters */
	{ "range-syntax", HEAD OUT RULE("joint") "x = 1,5\n",
	  "10: [rule r] x: expected FROM:TO -> FROM:TO (such as -1280:1280 -> 0:1), got '1,5'" },
	{ "range-empty", HEAD OUT RULE("joint") "z = 500:500 -> 0:1\n",
	  "10: [rule r] z: the input range 500:500 is empty: its ends are equal" },
	{ "range-overflows-input", HEAD OUT RULE("joint") "x = 0:5e-324 -> 0:1\n",
	  "10: [rule r] x: 0:5e-324 -> 0:1 scales values beyond a 32-bit float's range (at "
	  "most 3.40282e+38)" },
	{ "range-overflows-output", HEAD OUT RULE("joint") "y = 0:1 -> 0:1e308\n",
	  "10: [rule r] y: 0:1 -> 0:1e308 scales values beyond a 32-bit float's range (at "
	  "most 3.40282e+38)" },
	{ "message-past-max-packet",
	  HEAD "[output o]\nkind = osc\ntarget = osc.udp://127.0.0.1:7000\nmax_packet = 64\n"
	       "[rule r]\noutput = o\nfor = joint\naddress = /{joint}/pad/pad/pad\nargs = x y z\n",
	  "7: [rule r]: its messages take up to 48 bytes, and [output o] has room for 44 in a "
	  "packet (max_packet = 64, less what a bundle adds)" },
	{ "range-unknown-word", HEAD OUT RULE("joint") "x = 0:1 -> 0:127 round\n",
	  "10: [rule r] x: unknown word 'round'; after the range come clamp, invert, exp K and "
	  "int" },
	{ "range-word-twice", HEAD OUT RULE("joint") "y = int invert int\n",
	  "10: [rule r] y: 'int' is given twice" },
	{ "range-clamp-needs-range", HEAD OUT RULE("joint") "x = clamp\n",
	  "10: [rule r] x: clamp needs a range to work within: FROM:TO -> FROM:TO clamp" },
	{ "range-exp-needs-range", HEAD OUT RULE("joint") "z = invert exp 2\n",
	  "10: [rule r] z: exp needs a range to work within: FROM:TO -> FROM:TO exp" },
	{ "range-exp-number", HEAD OUT RULE("joint") "u = 0:640 -> 0:1 exp 0\n",
	  "10: [rule r] u: exp needs a number other than 0, from -50 to 50, after it (such as exp "
	  "2)" },
	{ "clamp", HEAD OUT RULE("joint") "clamp = yes\n",
	  "10: [rule r] clamp: expected false or true, got 'yes'" },
	{ "on-change", HEAD OUT RULE("joint") "on_change = -1\n",
	  "10: [rule r] on_change: expected a number of at least 0, got '-1'" },
	{ "refresh", HEAD OUT RULE("joint") "on_change = 0\nrefresh = 0\n",
	  "11: [rule r] refresh: expected seconds, more than 0 and at most a day, got '0'" },
	{ "max-rate", HEAD OUT RULE("joint") "max_rate = fast\n",
	  "10: [rule r] max_rate: expected messages per second, more than 0 and at most 1000, got "
	  "'fast'" },
	{ "refresh-alone", HEAD OUT RULE("joint") "refresh = 1\n",
	  "10: [rule r] refresh: only with on_change: it resends what did not change" },
	/* gestures: events with a hand, and [gestures] */
	{ "args-hand-scope", HEAD OUT RULE("joint") "args = hand\n",
	  "10: [rule r] args: 'hand' needs for = event" },
	{ "address-hand-scope", HEAD OUT "[rule r]\noutput = o\nfor = joint\naddress = /g/{hand}\n",
	  "9: [rule r] address: {hand} needs for = event" },
	{ "args-hand-without-gesture",
	  HEAD OUT RULE("event") "events = wave new_user\nargs = user hand\n",
	  "11: [rule r] args: 'hand' is only for gesture and hand events, and new_user has no "
	  "hand" },
	{ "address-hand-without-gesture",
	  HEAD OUT
	  "[rule r]\noutput = o\nfor = event\nevents = clap lost_user\naddress = /g/{hand}\n",
	  "10: [rule r] address: {hand} is only for gesture and hand events, and lost_user has no "
	  "hand" },
	{ "hand-state-not-a-hand",
	  HEAD OUT RULE("joint") "joints = left_hand head\nargs = hand_state\n",
	  "10: [rule r] joints: 'hand_state' is a hand's, and head is not a hand; list the joints "
	  "to send it for in 'joints': left_hand and right_hand" },
	{ "hand-confidence-all-joints", HEAD OUT RULE("user") "args = hand_confidence\n",
	  "10: [rule r] args: 'hand_confidence' is a hand's, and head is not a hand; list the "
	  "joints to send it for in 'joints': left_hand and right_hand" },
	{ "hand-state-frame", HEAD OUT RULE("frame") "args = hand_state\n",
	  "10: [rule r] args: 'hand_state' needs for = user or joint" },
	{ "gestures-with-name", HEAD "[gestures wave]\n", "3: [gestures] takes no name" },
	{ "gestures-unknown-key", HEAD "[gestures]\nswipe_speed = 2\n",
	  "4: [gestures] swipe_speed: unknown key; keys are min_confidence, velocity_window, "
	  "still_window, scale_smoothing, turn_smoothing, cooldown, stroke_settle, "
	  "swipe_min_speed, swipe_min_distance, swipe_max_off_axis, swipe_max_duration, "
	  "swipe_min_forward, swipe_min_elbow, push_min_speed, push_min_distance, "
	  "push_max_off_axis, push_max_duration, push_min_reach, push_min_extension, "
	  "wave_min_lift, "
	  "wave_min_amplitude, wave_min_half_cycles, wave_max_half_period, raise_min_height, "
	  "raise_max_speed, raise_hold_time, clap_min_open, clap_max_gap, clap_min_speed, "
	  "clap_min_forward, arms_out_min_reach, arms_out_max_height, arms_out_max_speed and "
	  "arms_out_hold_time" },
	{ "gestures-not-a-number", HEAD "[gestures]\ncooldown = 1s\n",
	  "4: [gestures] cooldown: expected a number from 0 to 10 s, got '1s'" },
	{ "gestures-out-of-range", HEAD "[gestures]\nswipe_min_speed = 200\n",
	  "4: [gestures] swipe_min_speed: expected a number from 0 to 100 body units/s, got "
	  "'200'" },
	{ "gestures-not-whole", HEAD "[gestures]\nwave_min_half_cycles = 2.5\n",
	  "4: [gestures] wave_min_half_cycles: expected a whole number from 1 to 100, got '2.5'" },
	{ "gestures-twice", HEAD "[gestures]\ncooldown = 1\n[gestures]\n",
	  "5: duplicate section [gestures] (first at line 3)" },
	/* [output] with kind = tuio */
	{ "tuio-bundle", HEAD TUIO "bundle = frame\n",
	  "5: [output t] bundle: TUIO sends one bundle per frame; bundle is for kind = osc" },
	{ "tuio-unknown-key", HEAD TUIO "cursor = hand\n",
	  "5: [output t] cursor: unknown key; keys are kind, target, max_packet, ttl, interface, "
	  "profile, touch, push_depth, push_release, raised_height, raised_release, "
	  "min_confidence, box, body_width, body_height, body_raise, camera_box, mirror, "
	  "source, empty_repeats, keepalive" },
	{ "tuio-profile", HEAD TUIO "profile = 2dcur\n",
	  "5: [output t] profile: expected 2Dcur, 25Dcur or 3Dcur, got '2dcur'" },
	{ "tuio-touch", HEAD TUIO "touch = hover\n",
	  "5: [output t] touch: expected always, push, raised or grip, got 'hover'" },
	{ "tuio-number", HEAD TUIO "push_depth = far\n",
	  "5: [output t] push_depth: expected a number from 0 to 2, got 'far'" },
	{ "tuio-release", HEAD TUIO "push_depth = 0.4\npush_release = 0.4\n",
	  "6: [output t] push_release: must be less than push_depth (0.4), or a hand at the "
	  "plane would touch and let go at once" },
	{ "tuio-release-default", HEAD TUIO "push_depth = 0.3\n",
	  "3: [output t] push_release: must be less than push_depth (0.3), or a hand at the "
	  "plane would touch and let go at once" },
	{ "tuio-camera-box", HEAD TUIO "camera_box = -800:800 900:-300 1200:3500\n",
	  "5: [output t] camera_box: expected X0:X1 Y0:Y1 Z0:Z1 in millimetres, each from low to "
	  "high (-800:800 -300:900 1200:3500), got '-800:800 900:-300 1200:3500'" },
	{ "tuio-mirror", HEAD TUIO "mirror = no\n",
	  "5: [output t] mirror: expected false or true, got 'no'" },
	{ "tuio-source-at", HEAD TUIO "source = left@stage\n",
	  "5: [output t] source: expected true, false or an application name: 'left@stage' has "
	  "an '@': the name goes before it and the host after it by itself (NAME@HOST)" },
	{ "tuio-source-space", HEAD TUIO "source = stage left\n",
	  "5: [output t] source: expected true, false or an application name: 'stage left' has "
	  "a space, a control or a non-ASCII character; a name is printable ASCII (OSC strings "
	  "are ASCII)" },
	{ "tuio-source-long", HEAD TUIO "source = " NAME_65 "\n",
	  "5: [output t] source: expected true, false or an application name: a name is 1 to 64 "
	  "characters, '" NAME_65 "' has 65" },
	{ "tuio-repeats", HEAD TUIO "empty_repeats = 2.5\n",
	  "5: [output t] empty_repeats: expected a whole number from 0 to 100, got '2.5'" },
	{ "tuio-keepalive", HEAD TUIO "keepalive = 0\n",
	  "5: [output t] keepalive: expected a number from 0.1 to 60, got '0'" },
	{ "tuio-rule-to-it", HEAD TUIO "[rule r]\noutput = t\nfor = frame\naddress = /a\n",
	  "6: [rule r] output: [output t] is a TUIO output: it sends hands by itself, rules "
	  "cannot send to it" },
	/* [output] with kind = websocket */
	{ "ws-unknown-key", HEAD WS "ttl = 2\n",
	  "5: [output w] ttl: unknown key; keys are kind, target, bundle, max_packet, format, "
	  "allow_origins, max_clients and monitor" },
	{ "ws-target-osc", HEAD WS "target = osc.udp://127.0.0.1:7000\n",
	  "5: [output w] target: a WebSocket output listens for clients: ws://ADDRESS:PORT/PATH, "
	  "got 'osc.udp://127.0.0.1:7000'" },
	{ "ws-target-no-path", HEAD WS "target = ws://127.0.0.1:7180\n",
	  "5: [output w] target: expected ws://ADDRESS:PORT/PATH (ws://127.0.0.1:7180/osc), got "
	  "'ws://127.0.0.1:7180'" },
	{ "ws-target-root", HEAD WS "target = ws://127.0.0.1:7180/\n",
	  "5: [output w] target: expected ws://ADDRESS:PORT/PATH (ws://127.0.0.1:7180/osc), got "
	  "'ws://127.0.0.1:7180/'" },
	{ "ws-target-name", HEAD WS "target = ws://studio.local:7180/osc\n",
	  "5: [output w] target: a WebSocket output listens on an IPv4 address of this machine "
	  "(127.0.0.1, 0.0.0.0 for every one) or localhost, got 'studio.local'" },
	{ "ws-target-port", HEAD WS "target = ws://127.0.0.1:0/osc\n",
	  "5: [output w] target: the port must be a number from 1 to 65535, got '0'" },
	{ "ws-target-on-osc", HEAD "[output o]\nkind = osc\ntarget = ws://127.0.0.1:7180/osc\n",
	  "5: [output o] target: ws:// is for kind = websocket; this output sends to osc.udp:// "
	  "or osc.tcp://" },
	{ "ws-format", HEAD WS "format = xml\n",
	  "5: [output w] format: expected osc or json, got 'xml'" },
	{ "ws-json-bundle", HEAD WS "format = json\nbundle = frame\n",
	  "6: [output w] bundle: format = json sends each message on its own; bundle is for "
	  "format = osc" },
	{ "ws-origin", HEAD WS "allow_origins = http://a.local ftp://b.local\n",
	  "5: [output w] allow_origins: expected origins such as http://studio.local:8080, "
	  "file:// or null (or * for any page), separated by spaces; got 'ftp://b.local'" },
	{ "ws-origin-path", HEAD WS "allow_origins = http://a.local/page.html\n",
	  "5: [output w] allow_origins: expected origins such as http://studio.local:8080, "
	  "file:// or null (or * for any page), separated by spaces; got "
	  "'http://a.local/page.html'" },
	{ "ws-max-clients", HEAD WS "max_clients = 0\n",
	  "5: [output w] max_clients: expected a whole number from 1 to 1024, got '0'" },
	{ "ws-monitor", HEAD WS "monitor = yes\n",
	  "5: [output w] monitor: expected false or true, got 'yes'" },
	{ "ws-key-on-osc", HEAD OUT "monitor = true\n",
	  "6: [output o] monitor: only for kind = websocket" },
	{ "ws-key-on-tuio", HEAD TUIO "format = json\n",
	  "5: [output t] format: only for kind = websocket" },
	{ "ws-same-port", HEAD WS "[output x]\nkind = websocket\ntarget = ws://0.0.0.0:7180/x\n",
	  "7: [output x] target: [output w] (line 3) listens on port 7180 already; give each "
	  "WebSocket output a port of its own" },
	{ "ws-same-port-localhost",
	  HEAD WS "[output x]\nkind = websocket\ntarget = ws://localhost:7180/x\n",
	  "7: [output x] target: [output w] (line 3) listens on port 7180 already; give each "
	  "WebSocket output a port of its own" },
	{ "ws-port-after-everywhere",
	  HEAD "[output a]\nkind = websocket\ntarget = ws://0.0.0.0:9000/a\n"
	       "[output b]\nkind = websocket\ntarget = ws://192.168.1.5:9000/b\n",
	  "8: [output b] target: [output a] (line 3) listens on port 9000 already; give each "
	  "WebSocket output a port of its own" },
	{ "ws-everywhere-after-two",
	  HEAD "[output a]\nkind = websocket\ntarget = ws://192.168.1.5:9000/a\n"
	       "[output b]\nkind = websocket\ntarget = ws://192.168.1.6:9000/b\n"
	       "[output c]\nkind = websocket\ntarget = ws://0.0.0.0:9000/c\n",
	  "11: [output c] target: [output a] (line 3) listens on port 9000 already; give each "
	  "WebSocket output a port of its own" },
};

static void
test_parse_error(gconstpointer data)
{
	const ErrorCase *c = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *expected = g_strconcat("test.map:", c->message, NULL);
	/* Sizes come from the literal so that an embedded NUL is kept. */
	gsize length = strlen(c->text);
	g_autoptr(Mapping) mapping = NULL;

	if (strcmp(c->name, "nul-byte") == 0)
		length = sizeof(HEAD "description = a\0b\n") - 1;
	mapping = mapping_parse("test.map", c->text, length, &error);
	g_assert_null(mapping);
	g_assert_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID);
	g_assert_cmpstr(error->message, ==, expected);
}

/* A 1 MB line is not quoted back whole, in the error, on every reload. */
static void
test_parse_long_line(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *junk = g_strnfill(1000000, 'x');
	g_autofree char *text =
	        g_strconcat("[mapping]\nformat = 1\ndescription = ", junk, "\n", NULL);
	g_autoptr(Mapping) mapping = mapping_parse("test.map", text, strlen(text), &error);

	g_assert_null(mapping);
	g_assert_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID);
	g_assert_cmpstr(error->message, ==,
	                "test.map:3: 1000014 bytes long; a line of a mapping file holds at most "
	                "1024 (is this a mapping file?)");
}

/* Editors on some systems start a file with a byte-order mark: it is no
 * part of [mapping]. */
static void
test_parse_bom(void)
{
	static const char text[] = "\xef\xbb\xbf[mapping]\nformat = 1\n[output o]\nkind = osc\n"
	                           "target = osc.udp://127.0.0.1:9000\n[rule r]\noutput = o\n"
	                           "for = frame\naddress = /a\n";
	g_autoptr(GError) error = NULL;
	g_autoptr(Mapping) mapping = mapping_parse("test.map", text, strlen(text), &error);

	g_assert_no_error(error);
	g_assert_cmpuint(mapping->rules->len, ==, 1);
}

static Mapping *
parse_ok(const char *text)
{
	g_autoptr(GError) error = NULL;
	Mapping *mapping = mapping_parse("test.map", text, strlen(text), &error);

	g_assert_no_error(error);
	g_assert_nonnull(mapping);
	return mapping;
}

/* Comments, indentation, blank lines, a last line without a newline and a
 * rule naming an output defined after it are all fine. */
static void
test_parse_layout(void)
{
	g_autoptr(Mapping) mapping =
	        parse_ok("# a comment\n\n[mapping]\n  format = 1\n\t# indented comment\n"
	                 "description = two = signs\n[rule r]\noutput = o\nfor = frame\n"
	                 "address = /a\n" OUT "bundle=none");
	const MappingOutput *output = mapping_get_output(mapping, 0);

	g_assert_cmpstr(mapping->description, ==, "two = signs");
	g_assert_cmpuint(mapping->rules->len, ==, 1);
	g_assert_cmpuint(mapping_get_rule(mapping, 0)->output, ==, 0);
	g_assert_cmpint(output->bundle, ==, MAPPING_BUNDLE_NONE);
	g_assert_cmpuint(mapping->warnings->len, ==, 0);
}

static void
test_parse_websocket(void)
{
	g_autoptr(Mapping) mapping =
	        parse_ok(HEAD WS "[output j]\nkind = websocket\ntarget = ws://0.0.0.0:9000/json\n"
	                         "format = json\nallow_origins = http://studio.local:8080 null\n"
	                         "max_clients = 4\nmonitor = true\n"
	                         "[rule r]\noutput = w\nfor = frame\naddress = /a\n"
	                         "[rule s]\noutput = j\nfor = frame\naddress = /a\n");
	const MappingOutput *w = mapping_get_output(mapping, 0);
	const MappingOutput *j = mapping_get_output(mapping, 1);
	g_autofree char *url = mapping_target_to_string(&j->target);

	g_assert_cmpint(w->kind, ==, MAPPING_OUTPUT_WEBSOCKET);
	g_assert_cmpint(w->target.transport, ==, MAPPING_TRANSPORT_WS);
	g_assert_cmpstr(w->target.host, ==, "127.0.0.1");
	g_assert_cmpuint(w->target.port, ==, 7180);
	g_assert_cmpstr(w->target.path, ==, "/osc");
	g_assert_cmpint(w->websocket.format, ==, MAPPING_WS_OSC);
	g_assert_null(w->websocket.allow_origins);
	g_assert_cmpuint(w->websocket.max_clients, ==, 16);
	g_assert_false(w->websocket.monitor);
	g_assert_cmpint(w->bundle, ==, MAPPING_BUNDLE_FRAME);
	g_assert_cmpstr(url, ==, "ws://0.0.0.0:9000/json");
	g_assert_cmpint(j->websocket.format, ==, MAPPING_WS_JSON);
	g_assert_cmpuint(g_strv_length(j->websocket.allow_origins), ==, 2);
	g_assert_cmpstr(j->websocket.allow_origins[0], ==, "http://studio.local:8080");
	g_assert_cmpstr(j->websocket.allow_origins[1], ==, "null");
	g_assert_cmpuint(j->websocket.max_clients, ==, 4);
	g_assert_true(j->websocket.monitor);
	g_assert_false(mapping_output_equal(w, j));
	g_assert_true(mapping_output_equal(j, j));
}

/* Each address of a machine has its own ports. */
static void
test_parse_websocket_hosts(void)
{
	g_autoptr(Mapping) mapping =
	        parse_ok(HEAD "[output a]\nkind = websocket\ntarget = ws://192.168.1.5:9000/a\n"
	                      "[output b]\nkind = websocket\ntarget = ws://127.0.0.1:9000/b\n"
	                      "[output c]\nkind = websocket\ntarget = ws://localhost:9001/c\n"
	                      "[rule r]\noutput = a\nfor = frame\naddress = /a\n"
	                      "[rule s]\noutput = b\nfor = frame\naddress = /a\n"
	                      "[rule t]\noutput = c\nfor = frame\naddress = /a\n");

	g_assert_cmpuint(mapping->outputs->len, ==, 3);
	g_assert_cmpuint(mapping->warnings->len, ==, 0);
}

static void
test_parse_output_defaults(void)
{
	g_autoptr(Mapping) mapping = parse_ok(HEAD OUT RULE("frame"));
	const MappingOutput *output = mapping_get_output(mapping, 0);

	g_assert_cmpint(output->kind, ==, MAPPING_OUTPUT_OSC);
	g_assert_cmpint(output->target.transport, ==, MAPPING_TRANSPORT_UDP);
	g_assert_cmpstr(output->target.host, ==, "127.0.0.1");
	g_assert_cmpuint(output->target.port, ==, 7000);
	g_assert_cmpint(output->bundle, ==, MAPPING_BUNDLE_FRAME);
	g_assert_cmpuint(output->max_packet, ==, 1472);
	g_assert_cmpuint(output->ttl, ==, 1);
	g_assert_null(output->interface);
}

/* A TUIO output alone is a whole mapping; its keys land in its config. */
static void
test_parse_tuio(void)
{
	g_autoptr(Mapping) defaults = parse_ok(HEAD TUIO);
	g_autoptr(Mapping) set =
	        parse_ok(HEAD TUIO "target = osc.tcp://10.0.0.2:3334\n"
	                           "profile = 3Dcur\ntouch = raised\nbox = camera\n"
	                           "camera_box = -1000:1000 0:1000 1000:3000\n"
	                           "mirror = false\nsource = false\n"
	                           "keepalive = 0.5\nempty_repeats = 2\n");
	const MappingOutput *o = mapping_get_output(defaults, 0);
	g_autofree char *url = mapping_target_to_string(&o->target);

	g_assert_cmpuint(o->kind, ==, MAPPING_OUTPUT_TUIO);
	g_assert_cmpstr(url, ==, "osc.udp://127.0.0.1:3333");
	g_assert_cmpuint(o->tuio.touch, ==, TUIO_TOUCH_PUSH);
	g_assert_true(o->tuio_source.send);
	g_assert_null(o->tuio_source.name);
	g_assert_cmpuint(defaults->warnings->len, ==, 0);
	o = mapping_get_output(set, 0);
	g_assert_cmpuint(o->target.transport, ==, MAPPING_TRANSPORT_TCP);
	g_assert_cmpuint(o->tuio.profile, ==, TUIO_PROFILE_3DCUR);
	g_assert_cmpuint(o->tuio.touch, ==, TUIO_TOUCH_RAISED);
	g_assert_cmpuint(o->tuio.box, ==, TUIO_BOX_CAMERA);
	g_assert_cmpfloat(o->tuio.camera_min.y, ==, 0.0);
	g_assert_cmpfloat(o->tuio.camera_max.z, ==, 3000.0);
	g_assert_false(o->tuio.mirror);
	g_assert_false(o->tuio_source.send);
	g_assert_cmpint(o->tuio.keepalive_us, ==, 500000);
	g_assert_cmpuint(o->tuio.empty_repeats, ==, 2);
	g_clear_pointer(&set, mapping_free);
	set = parse_ok(HEAD TUIO "touch = grip\n");
	g_assert_cmpuint(mapping_get_output(set, 0)->tuio.touch, ==, TUIO_TOUCH_GRIP);
	g_clear_pointer(&set, mapping_free);
	set = parse_ok(HEAD TUIO "source = stage-left:2\n");
	g_assert_true(mapping_get_output(set, 0)->tuio_source.send);
	g_assert_cmpstr(mapping_get_output(set, 0)->tuio_source.name, ==, "stage-left:2");
	g_clear_pointer(&set, mapping_free);
	set = parse_ok(HEAD TUIO "source = true\n");
	g_assert_true(mapping_get_output(set, 0)->tuio_source.send);
	g_assert_null(mapping_get_output(set, 0)->tuio_source.name);
}

static void
test_parse_multicast(void)
{
	g_autoptr(Mapping) mapping =
	        parse_ok(HEAD "[output o]\nkind = osc\ntarget = osc.udp://239.0.0.7:7000\n"
	                      "ttl = 4\ninterface = eth0\n" RULE("frame"));
	const MappingOutput *output = mapping_get_output(mapping, 0);

	g_assert_cmpuint(output->ttl, ==, 4);
	g_assert_cmpstr(output->interface, ==, "eth0");
}

static void
test_parse_rule(void)
{
	g_autoptr(Mapping) mapping = parse_ok(
	        HEAD OUT "[names n]\nleft_hand = l_hand\nlost_user = gone\n"
	                 "[rule r]\noutput = o\nfor = joint\naddress = /s/user{user}/{joint}\n"
	                 "args = joint user x y z\nnames = n\njoints = left_hand head\n"
	                 "x = 1280:-1280 -> 0:1\nmin_confidence = 0.25\nclamp = true\n"
	                 "on_change = 0.01\nrefresh = 2.5\n");
	const MappingRule *rule = mapping_get_rule(mapping, 0);
	const MappingRange *x = &rule->ranges[mapping_value_range(MAPPING_VALUE_X)];
	const MappingRange *y = &rule->ranges[mapping_value_range(MAPPING_VALUE_Y)];

	g_assert_cmpint(rule->scope, ==, MAPPING_SCOPE_JOINT);
	g_assert_cmpuint(rule->n_address, ==, 4);
	g_assert_cmpstr(rule->address[0].text, ==, "/s/user");
	g_assert_cmpint(rule->address[1].kind, ==, MAPPING_PART_USER);
	g_assert_cmpstr(rule->address[2].text, ==, "/");
	g_assert_cmpint(rule->address[3].kind, ==, MAPPING_PART_JOINT);
	g_assert_cmpuint(rule->n_args, ==, 5);
	g_assert_cmpint(rule->args[0], ==, MAPPING_VALUE_JOINT);
	g_assert_cmpint(rule->args[4], ==, MAPPING_VALUE_Z);
	g_assert_cmpuint(rule->n_joints, ==, 2);
	g_assert_cmpint(rule->joints[0], ==, TRACKER_JOINT_LEFT_HAND);
	g_assert_cmpint(rule->joints[1], ==, TRACKER_JOINT_HEAD);
	g_assert_cmpstr(rule->joint_names[TRACKER_JOINT_LEFT_HAND], ==, "l_hand");
	g_assert_cmpstr(rule->joint_names[TRACKER_JOINT_HEAD], ==, "head");
	g_assert_cmpstr(rule->event_names[MAPPING_EVENT_LOST_USER], ==, "gone");
	g_assert_cmpstr(rule->event_names[MAPPING_EVENT_NEW_USER], ==, "new_user");
	/* x = (1280 - X) / 2560 */
	g_assert_cmpfloat_with_epsilon(x->scale, -1.0 / 2560, 1e-15);
	g_assert_cmpfloat_with_epsilon(x->offset, 0.5, 1e-15);
	g_assert_cmpfloat(x->low, ==, 0);
	g_assert_cmpfloat(x->high, ==, 1);
	g_assert_cmpfloat(y->scale, ==, 1);
	g_assert_cmpfloat(y->offset, ==, 0);
	g_assert_cmpfloat(rule->min_confidence, ==, 0.25);
	g_assert_true(rule->clamp);
	g_assert_true(rule->on_change);
	g_assert_cmpfloat(rule->change, ==, 0.01);
	g_assert_cmpint(rule->refresh_us, ==, 2500000);
}

static void
test_parse_rule_defaults(void)
{
	g_autoptr(Mapping) mapping = parse_ok(HEAD OUT RULE("joint"));
	const MappingRule *rule = mapping_get_rule(mapping, 0);

	g_assert_cmpuint(rule->n_args, ==, 0);
	g_assert_cmpuint(rule->n_joints, ==, TRACKER_N_JOINTS);
	g_assert_cmpfloat(rule->min_confidence, ==, 0.5);
	g_assert_false(rule->clamp);
	g_assert_false(rule->on_change);
	for (guint j = 0; j < TRACKER_N_JOINTS; j++)
		g_assert_cmpstr(rule->joint_names[j], ==, tracker_joint_name(j));
}

/* Users are numbered by the tracker unless the file asks for slots; a
 * rule may name any slot then. */
static void
test_parse_user_ids(void)
{
	g_autoptr(Mapping) unique = parse_ok(HEAD OUT RULE("joint") "user = 7\n");
	g_autoptr(Mapping) said = parse_ok(HEAD "user_ids = unique\n" OUT RULE("joint"));
	g_autoptr(Mapping) slot = parse_ok(HEAD "user_ids = slot\n" OUT RULE("joint") "user = 6\n");

	g_assert_cmpint(unique->user_ids, ==, MAPPING_IDS_UNIQUE);
	g_assert_cmpuint(mapping_get_rule(unique, 0)->user_id, ==, 7);
	g_assert_cmpint(said->user_ids, ==, MAPPING_IDS_UNIQUE);
	g_assert_cmpint(slot->user_ids, ==, MAPPING_IDS_SLOT);
	g_assert_cmpuint(mapping_get_rule(slot, 0)->user_id, ==, 6);
}

/* Reloads keep a rule's state when its text, and its names table, are the same. */
static void
test_parse_fingerprint(void)
{
	const char *a = HEAD OUT "[names n]\nhead = h\n" RULE("joint") "names = n\n";
	const char *same =
	        "# edited\n" HEAD OUT "[names n]\nhead = h\n\n" RULE("joint") "names = n\n";
	const char *other_names = HEAD OUT "[names n]\nhead = top\n" RULE("joint") "names = n\n";
	g_autoptr(Mapping) ma = parse_ok(a);
	g_autoptr(Mapping) mb = parse_ok(same);
	g_autoptr(Mapping) mc = parse_ok(other_names);

	g_assert_cmpstr(mapping_get_rule(ma, 0)->fingerprint, ==,
	                mapping_get_rule(mb, 0)->fingerprint);
	g_assert_cmpstr(mapping_get_rule(ma, 0)->fingerprint, !=,
	                mapping_get_rule(mc, 0)->fingerprint);
}

static void
test_parse_warn_numeric_part(void)
{
	g_autoptr(Mapping) mapping = parse_ok(
	        HEAD OUT "[rule r]\noutput = o\nfor = joint\naddress = /skel/{user}/{joint}\n");

	g_assert_cmpuint(mapping->warnings->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(mapping->warnings, 0), ==,
	                "test.map:9: warning: [rule r] address: the part '{user}' is a number, "
	                "which Pd's [oscparse] keeps as a symbol that [route] cannot match; "
	                "prefer a name (user{user}) or the id as an argument");
}

static void
test_parse_warn_unused(void)
{
	g_autoptr(Mapping) mapping = parse_ok(HEAD OUT "[output p]\nkind = osc\n"
	                                               "target = osc.tcp://localhost:9\n"
	                                               "[names n]\nhead = h\n" RULE("frame"));

	g_assert_cmpuint(mapping->warnings->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(mapping->warnings, 0), ==,
	                "test.map:6: warning: [output p] is used by no rule");
	g_assert_cmpstr(g_ptr_array_index(mapping->warnings, 1), ==,
	                "test.map:9: warning: [names n] is used by no rule");
}

/* Gesture events by name, with their hand; [gestures] sets the
 * recognisers' thresholds and leaves the others at their defaults. */
static void
test_parse_gestures(void)
{
	g_autoptr(Mapping) mapping = parse_ok(
	        HEAD OUT "[gestures]\nswipe_min_speed = 3.5\nwave_min_half_cycles = 4\n"
	                 "[names n]\nswipe_left = swipeL\n"
	                 "[rule r]\noutput = o\nfor = event\nevents = swipe_left clap\n"
	                 "address = /g/{event}/{hand}\nargs = user hand event\nnames = n\n");
	const MappingRule *rule = mapping_get_rule(mapping, 0);
	GestureConfig defaults;
	double value;

	gesture_config_init(&defaults);
	g_assert_cmpuint(rule->n_events, ==, 2);
	g_assert_cmpint(rule->events[0], ==, MAPPING_EVENT_SWIPE_LEFT);
	g_assert_cmpint(rule->events[1], ==, mapping_event_from_gesture(GESTURE_CLAP));
	g_assert_cmpstr(rule->event_names[MAPPING_EVENT_SWIPE_LEFT], ==, "swipeL");
	g_assert_cmpstr(rule->event_names[MAPPING_EVENT_CLAP], ==, "clap");
	g_assert_cmpuint(rule->n_address, ==, 4);
	g_assert_cmpint(rule->address[3].kind, ==, MAPPING_PART_HAND);
	g_assert_cmpint(rule->args[1], ==, MAPPING_VALUE_HAND);
	g_assert_true(mapping_rule_wants_gestures(rule));
	g_assert_true(mapping_wants_gestures(mapping));
	g_assert_cmpfloat(mapping->gestures.swipe_min_speed, ==, 3.5);
	g_assert_cmpfloat(mapping->gestures.wave_min_half_cycles, ==, 4);
	g_assert_true(gesture_config_get(&mapping->gestures, "cooldown", &value));
	g_assert_cmpfloat(value, ==, defaults.cooldown);
	g_assert_cmpuint(mapping->warnings->len, ==, 0);
}

/* Rules for users' comings and goings alone want no recogniser. */
static void
test_parse_no_gestures(void)
{
	g_autoptr(Mapping) mapping = parse_ok(HEAD OUT RULE("event") "events = new_user\n");
	GestureConfig defaults;

	gesture_config_init(&defaults);
	g_assert_false(mapping_wants_gestures(mapping));
	g_assert_cmpmem(&mapping->gestures, sizeof(defaults), &defaults, sizeof(defaults));
}

static void
test_parse_warn_unused_gestures(void)
{
	g_autoptr(Mapping) mapping =
	        parse_ok(HEAD OUT "[gestures]\ncooldown = 1\n" RULE("event") "events = new_user\n");

	g_assert_cmpuint(mapping->warnings->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(mapping->warnings, 0), ==,
	                "test.map:6: warning: [gestures] is used by no rule: no rule has gesture "
	                "events");
}

/* Every key of [gestures] has its line in mappings/README.md, with its default. */
static void
test_gesture_keys_documented(void)
{
	g_autofree char *path =
	        g_build_filename(g_getenv("SKELBRIDGE_SOURCE_ROOT"), "mappings", "README.md", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	const GestureConfigKeyInfo *info;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	g_assert_nonnull(strstr(text, "\n### [gestures]\n"));
	for (guint i = 0; (info = gesture_config_key_info(i)) != NULL; i++) {
		g_autofree char *start = g_strdup_printf("| `%s` |", info->key);
		g_autofree char *end = g_strdup_printf("| `%g` |\n", info->default_value);
		const char *line = strstr(strstr(text, "\n### [gestures]\n"), start);
		const char *eol = line ? strchr(line, '\n') : NULL;

		if (line == NULL || eol == NULL)
			g_error("[gestures] %s is not in %s", info->key, path);
		g_assert_true(g_str_has_prefix(eol + 1 - strlen(end), end));
	}
}

static void
test_target_parse(void)
{
	MappingTarget target = { 0 };
	g_autoptr(GError) error = NULL;
	g_autofree char *url = NULL;

	g_assert_true(mapping_target_parse("osc.tcp://studio-pc.local:3333", &target, &error));
	g_assert_no_error(error);
	g_assert_cmpint(target.transport, ==, MAPPING_TRANSPORT_TCP);
	g_assert_cmpstr(target.host, ==, "studio-pc.local");
	g_assert_cmpuint(target.port, ==, 3333);
	url = mapping_target_to_string(&target);
	g_assert_cmpstr(url, ==, "osc.tcp://studio-pc.local:3333");
	mapping_target_clear(&target);
	g_assert_false(mapping_target_parse("osc.udp://:7000", &target, &error));
	g_assert_error(error, MAPPING_ERROR, MAPPING_ERROR_TARGET);
}

static void
test_locate_shipped(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = mapping_file_locate("osceleton", &error);

	g_assert_no_error(error);
	g_assert_true(g_str_has_suffix(path, "/mappings/osceleton.map"));
	g_assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
}

static void
test_locate_path(void)
{
	g_autofree char *a = mapping_file_locate("./mine", NULL);
	g_autofree char *b = mapping_file_locate("mine.map", NULL);

	g_assert_cmpstr(a, ==, "./mine");
	g_assert_cmpstr(b, ==, "mine.map");
}

static void
test_locate_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = mapping_file_locate("pd", &error);

	g_assert_null(path);
	g_assert_error(error, MAPPING_ERROR, MAPPING_ERROR_NOT_FOUND);
	g_assert_cmpstr(
	        error->message, ==,
	        "no mapping called 'pd' (shipped mappings: avatar, default, omni, osceleton, "
	        "pd-simple, stage, tuio-hands, web); "
	        "give a "
	        "path to use a file of your own");
}

/* Folders in $SKELBRIDGE_MAPPINGS_PATH come first (a staged install's):
 * empty and missing ones are passed over, and a name there shadows the
 * shipped mapping of that name. */
static void
test_locate_env(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("skelbridge-mappings-XXXXXX", &error);
	g_autofree char *mine = NULL, *shadow = NULL, *list = NULL;
	g_autofree char *pd = NULL, *def = NULL;

	g_assert_no_error(error);
	mine = g_build_filename(dir, "pd.map", NULL);
	shadow = g_build_filename(dir, "default.map", NULL);
	g_assert_true(g_file_set_contents(mine, "", -1, NULL));
	g_assert_true(g_file_set_contents(shadow, "", -1, NULL));
	list = g_strconcat("/nonexistent::", dir, NULL);
	g_setenv(MAPPING_DIRS_ENV, list, TRUE);
	pd = mapping_file_locate("pd", NULL);
	def = mapping_file_locate("default", NULL);
	g_unsetenv(MAPPING_DIRS_ENV);
	g_assert_cmpstr(pd, ==, mine);
	g_assert_cmpstr(def, ==, shadow);
	g_assert_cmpint(g_unlink(mine), ==, 0);
	g_assert_cmpint(g_unlink(shadow), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

static void
test_load_missing_file(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Mapping) mapping = mapping_file_load("/nonexistent/x.map", &error);

	g_assert_null(mapping);
	g_assert_error(error, MAPPING_ERROR, MAPPING_ERROR_READ);
	g_assert_nonnull(strstr(error->message, "/nonexistent/x.map"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(error_cases); i++) {
		g_autofree char *path =
		        g_strconcat("/mapping/parse/error/", error_cases[i].name, NULL);

		g_test_add_data_func(path, &error_cases[i], test_parse_error);
	}
	g_test_add_func("/mapping/parse/layout-is-free", test_parse_layout);
	g_test_add_func("/mapping/parse/error/long-line-not-quoted", test_parse_long_line);
	g_test_add_func("/mapping/parse/byte-order-mark", test_parse_bom);
	g_test_add_func("/mapping/parse/output-defaults", test_parse_output_defaults);
	g_test_add_func("/mapping/parse/multicast-keys", test_parse_multicast);
	g_test_add_func("/mapping/parse/tuio-output", test_parse_tuio);
	g_test_add_func("/mapping/parse/websocket-output", test_parse_websocket);
	g_test_add_func("/mapping/parse/websocket-hosts", test_parse_websocket_hosts);
	g_test_add_func("/mapping/parse/rule-keys", test_parse_rule);
	g_test_add_func("/mapping/parse/rule-defaults", test_parse_rule_defaults);
	g_test_add_func("/mapping/parse/user-ids", test_parse_user_ids);
	g_test_add_func("/mapping/parse/fingerprint-ignores-comments-not-names",
	                test_parse_fingerprint);
	g_test_add_func("/mapping/parse/warning/numeric-address-part",
	                test_parse_warn_numeric_part);
	g_test_add_func("/mapping/parse/warning/unused-sections", test_parse_warn_unused);
	g_test_add_func("/mapping/parse/gestures", test_parse_gestures);
	g_test_add_func("/mapping/parse/gesture-keys-documented", test_gesture_keys_documented);
	g_test_add_func("/mapping/parse/no-gestures", test_parse_no_gestures);
	g_test_add_func("/mapping/parse/warning/unused-gestures", test_parse_warn_unused_gestures);
	g_test_add_func("/mapping/target/parse", test_target_parse);
	g_test_add_func("/mapping/locate/shipped-by-name", test_locate_shipped);
	g_test_add_func("/mapping/locate/paths-as-given", test_locate_path);
	g_test_add_func("/mapping/locate/unknown-name-lists-shipped", test_locate_unknown);
	g_test_add_func("/mapping/locate/env-folders-first", test_locate_env);
	g_test_add_func("/mapping/load/missing-file", test_load_missing_file);
	return g_test_run();
}
