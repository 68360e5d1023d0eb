/* Mapping files: which messages go where, declared in plain text.
 *
 * A mapping file has a [mapping] header, [output NAME] sections (where
 * messages go), [rule NAME] sections (which messages, with what address,
 * arguments and scaling) and [names NAME] tables (wire names for joints and
 * events). The parser is strict: every mistake is an error that names the
 * file, the line and what is wrong, and nothing is guessed. mappings/README.md
 * documents the format key by key.
 *
 * This is the model, pure data; mapping-parser.h turns text into it and
 * mapping-file.h finds and reads the files. */
#pragma once

#include <glib.h>

#include "gesture/gesture.h"
#include "tracker/tracker-joint.h"
#include "tuio.h"

#define MAPPING_ERROR (mapping_error_quark())
GQuark mapping_error_quark(void);

typedef enum {
	MAPPING_ERROR_INVALID,   /* the file's content is wrong: path:line: what */
	MAPPING_ERROR_READ,      /* the file could not be read */
	MAPPING_ERROR_NOT_FOUND, /* no shipped mapping by that name */
	MAPPING_ERROR_TARGET,    /* a target given on the command line is wrong */
} MappingError;

/* The file format this parser reads; files say `format = 1`. */
#define MAPPING_FORMAT 1
/* The largest mapping file read: a thousand rules take some 100 KiB. */
#define MAPPING_MAX_BYTES (1024 * 1024)
/* The largest magnitude of a value a rule scales: millimetres, pixels and
 * body units all lie well within it. */
#define MAPPING_MAX_INPUT 1e6
/* The longest line: every joint name in a list takes under 200 bytes. */
#define MAPPING_MAX_LINE 1024
/* The most arguments one message may carry (15 joints x 6 values fit). */
#define MAPPING_MAX_ARGS 128

typedef enum {
	MAPPING_OUTPUT_OSC,       /* messages from the rules */
	MAPPING_OUTPUT_TUIO,      /* hands as TUIO cursors; no rules send to it */
	MAPPING_OUTPUT_WEBSOCKET, /* messages from the rules, to WebSocket clients */
} MappingOutputKind;

typedef enum {
	MAPPING_TRANSPORT_UDP,
	MAPPING_TRANSPORT_TCP,
	MAPPING_TRANSPORT_WS, /* a listener: ws://ADDRESS:PORT/PATH */
} MappingTransport;

typedef enum {
	MAPPING_BUNDLE_FRAME, /* one bundle per frame */
	MAPPING_BUNDLE_USER,  /* one bundle per user per frame */
	MAPPING_BUNDLE_NONE,  /* plain messages */
} MappingBundle;

typedef struct {
	MappingTransport transport;
	char *host;
	guint port;
	char *path; /* ws: the WebSocket's path ("/osc"); NULL for the others */
} MappingTarget;

/* A WebSocket output's listener when the file names none. */
#define MAPPING_WS_TARGET "ws://127.0.0.1:7180/osc"
/* The most clients a WebSocket output takes unless it says otherwise. */
#define MAPPING_WS_MAX_CLIENTS 16

/* What a WebSocket output sends each client. */
typedef enum {
	MAPPING_WS_OSC,  /* each OSC packet as one binary message */
	MAPPING_WS_JSON, /* each message as one JSON text message */
} MappingWsFormat;

typedef struct {
	MappingWsFormat format;
	char **allow_origins; /* pages that may connect, NULL: the bridge's own and local files */
	guint max_clients;
	gboolean monitor; /* serve the web monitor on the listener */
} MappingWebsocket;

/* The longest application name in a TUIO source message. The reference
 * clients take any length; a name is a word or two, and this keeps the
 * source message of a split frame small beside its sets. */
#define MAPPING_TUIO_MAX_NAME 64

/* A TUIO output's source message: /tuio/2Dcur source NAME@HOST. */
typedef struct {
	gboolean send; /* FALSE leaves the source message out */
	char *name;    /* the application's NAME, or NULL for the bridge's name */
} MappingTuioSource;

typedef struct {
	char *name;
	guint line;
	MappingOutputKind kind;
	MappingTarget target;
	MappingBundle bundle;
	guint max_packet;              /* bytes; larger bundles are split */
	guint ttl;                     /* multicast: hops */
	char *interface;               /* multicast: network interface, or NULL */
	TuioConfig tuio;               /* kind tuio: touch, box, profile */
	MappingTuioSource tuio_source; /* kind tuio: the source message */
	MappingWebsocket websocket;    /* kind websocket */
} MappingOutput;

/* What a rule sends a message for. */
typedef enum {
	MAPPING_SCOPE_FRAME, /* once per frame */
	MAPPING_SCOPE_USER,  /* once per user per frame */
	MAPPING_SCOPE_JOINT, /* once per joint per user per frame */
	MAPPING_SCOPE_EVENT, /* once per event */
} MappingScope;

typedef enum {
	MAPPING_EVENT_NEW_USER,   /* a user appears */
	MAPPING_EVENT_NEW_SKEL,   /* all of the rule's joints are found for the first time */
	MAPPING_EVENT_LOST_USER,  /* a user is gone */
	MAPPING_EVENT_ZONE_ENTER, /* a user comes into a [zone] */
	MAPPING_EVENT_ZONE_LEAVE, /* ...and goes out of it, or out of view */
	MAPPING_EVENT_HAND_CLOSE, /* a hand closes into a fist (mapping-hands.h) */
	MAPPING_EVENT_HAND_OPEN,  /* ...and opens again, or is lost */
	/* Gestures (gesture.h), in GestureKind's order: */
	MAPPING_EVENT_SWIPE_LEFT,
	MAPPING_EVENT_SWIPE_RIGHT,
	MAPPING_EVENT_SWIPE_UP,
	MAPPING_EVENT_SWIPE_DOWN,
	MAPPING_EVENT_PUSH,
	MAPPING_EVENT_WAVE,
	MAPPING_EVENT_RAISE_HAND,
	MAPPING_EVENT_CLAP,
	MAPPING_EVENT_ARMS_OUT,
	MAPPING_N_EVENTS
} MappingEvent;

#define MAPPING_EVENT_FIRST_GESTURE MAPPING_EVENT_SWIPE_LEFT

/* The values a message can carry. The order matters: see mapping_value_*. */
typedef enum {
	MAPPING_VALUE_FRAME,      /* int32: the frame number */
	MAPPING_VALUE_USERS,      /* int32: users in the frame */
	MAPPING_VALUE_USER,       /* int32: the user's id */
	MAPPING_VALUE_EVENT,      /* string: the event's name */
	MAPPING_VALUE_HAND,       /* string: a gesture's or hand event's hand: "left", "right" or
	                           * "both" */
	MAPPING_VALUE_ZONE,       /* string: a zone event's zone */
	MAPPING_VALUE_ZONE_USERS, /* int32: users in MappingRule.zone */
	MAPPING_VALUE_CHOSEN,     /* int32: the id of the user the rule chose, 0 for none */
	/* A joint's, from here on: */
	MAPPING_VALUE_JOINT,      /* string: the joint's name */
	MAPPING_VALUE_X,          /* float32: position, mm unless scaled */
	MAPPING_VALUE_Y,          /* float32 */
	MAPPING_VALUE_Z,          /* float32 */
	MAPPING_VALUE_U,          /* float32: pixel column unless scaled */
	MAPPING_VALUE_V,          /* float32: pixel row unless scaled */
	MAPPING_VALUE_CONFIDENCE, /* float32: 0..1 */
	MAPPING_VALUE_ANGLE,      /* float32: degrees between the joint's two bones */
	MAPPING_VALUE_DISTANCE,   /* float32: to MappingRule.distance_to, mm unless scaled */
	MAPPING_VALUE_SPEED,      /* float32: mm per second unless scaled */
	MAPPING_VALUE_HEIGHT,     /* float32: above the floor, mm unless scaled */
	MAPPING_VALUE_QW,         /* float32: the joint's bone's rotation, a quaternion */
	MAPPING_VALUE_QX,         /* float32 */
	MAPPING_VALUE_QY,         /* float32 */
	MAPPING_VALUE_QZ,         /* float32 */
	MAPPING_VALUE_YAW,   /* float32: ...as Euler angles, degrees: Ry(yaw) Rx(pitch) Rz(roll) */
	MAPPING_VALUE_PITCH, /* float32 */
	MAPPING_VALUE_ROLL,  /* float32 */
	MAPPING_VALUE_HAND_STATE,      /* string: a hand's "open", "closed" or "unknown" */
	MAPPING_VALUE_HAND_CONFIDENCE, /* float32: 0..1, in that state */
	MAPPING_N_VALUES
} MappingValue;

/* The values that go through a range: x y z u v angle distance speed height. */
#define MAPPING_N_RANGES 9

typedef enum {
	MAPPING_PART_TEXT,
	MAPPING_PART_USER,   /* {user} */
	MAPPING_PART_JOINT,  /* {joint} */
	MAPPING_PART_EVENT,  /* {event} */
	MAPPING_PART_HAND,   /* {hand}: a gesture's or hand event's hand */
	MAPPING_PART_ZONE,   /* {zone}: a zone event's zone */
	MAPPING_PART_BRIDGE, /* {bridge}: the bridge's name (mapping_set_bridge_name()) */
} MappingPartKind;

/* The bridge's name unless it is given one (skelbridge run --bridge). */
#define MAPPING_BRIDGE_NAME "skelbridge"
/* The longest bridge name, as long as a TUIO source's name. */
#define MAPPING_BRIDGE_MAX_NAME MAPPING_TUIO_MAX_NAME

typedef struct {
	MappingPartKind kind;
	char *text; /* MAPPING_PART_TEXT only */
} MappingPart;

/* Where x y z are measured (u and v stay pixels in every space). */
typedef enum {
	MAPPING_SPACE_CAMERA, /* millimetres: x right, y up, z away from the sensor */
	MAPPING_SPACE_SCREEN, /* 0..1: x = u / 640, y = v / 480 (down), z 0 at 0.5 m to 1 at 4.5 m
	                       */
	MAPPING_SPACE_BODY,   /* shoulder widths from the user's torso, camera's axes */
} MappingSpace;

/* Which users a rule speaks of. */
typedef enum {
	MAPPING_USERS_ALL,
	MAPPING_USERS_FIRST,   /* the one in view longest (the lowest id in the frame) */
	MAPPING_USERS_NEAREST, /* the one nearest the sensor */
	MAPPING_USERS_ID,      /* the user with MappingRule.user_id */
	MAPPING_USERS_ZONE,    /* the users inside MappingRule.user_zone */
	MAPPING_USERS_RAISED,  /* the one who last raised a hand above their head */
} MappingUsers;

/* Where a zone's box lies. */
typedef enum {
	MAPPING_ZONE_ROOM,   /* mm: x right, y up from the floor, z along the floor away from the
	                        sensor */
	MAPPING_ZONE_CAMERA, /* mm: camera space */
} MappingZoneSpace;

/* A named box of the room: users come into it and go out of it. */
typedef struct {
	char *name;
	guint line;
	MappingZoneSpace space;
	TrackerVec3 min, max; /* the box, mm */
	TrackerJointId joint; /* the user's point that is in or out */
	double margin;        /* mm: a user inside leaves once this far outside */
	gboolean used;
} MappingZone;

/* One axis: value * scale + offset; then, with a curve, bent within the
 * output range [from, to]; kept within [low, high] when clamping; rounded
 * to an int32 with as_int. */
typedef struct {
	double scale, offset;
	double low, high;
	double from, to; /* the output range's ends, as written */
	gboolean ranged; /* FROM:TO -> FROM:TO was given */
	gboolean clamp;  /* this axis alone */
	double curve; /* 0: linear; K: (e^(K t) - 1) / (e^K - 1) with t from 0 at from to 1 at to */
	gboolean as_int; /* int32 on the wire, rounded to nearest */
} MappingRange;

typedef struct {
	char *name;
	guint line;
	/* Rules with the same fingerprint behave the same: a reload keeps
	 * their state (who was announced, what was last sent). */
	char *fingerprint;
	MappingScope scope;
	guint output; /* index in Mapping.outputs */
	MappingPart *address;
	guint n_address;
	MappingValue args[MAPPING_MAX_ARGS];
	guint n_args;
	MappingEvent events[MAPPING_N_EVENTS];
	guint n_events;
	TrackerJointId joints[TRACKER_N_JOINTS];
	guint n_joints;
	/* Wire names, from the rule's [names] table or the built-in names. */
	const char *joint_names[TRACKER_N_JOINTS];
	const char *event_names[MAPPING_N_EVENTS];
	double min_confidence;
	MappingSpace space;
	MappingUsers users;
	guint user_id;      /* MAPPING_USERS_ID */
	guint user_zone;    /* MAPPING_USERS_ZONE: index in Mapping.zones */
	int zone;           /* the `zone` key: index in Mapping.zones, or -1 for every zone */
	gsize longest_zone; /* bytes: the longest name of a zone the rule can speak of */
	gint64 hold_us; /* first, nearest, raised_hand: a chosen user lost this long keeps the role
	                 */
	MappingRange ranges[MAPPING_N_RANGES];
	TrackerJointId distance_to; /* the other end of `distance` */
	gboolean clamp;
	gint64 min_interval_us; /* max_rate: at most one message per slot this often; 0 no limit */
	gboolean on_change;     /* send only what moved by more than change */
	double change;
	gint64 refresh_us; /* with on_change: resend unchanged values this often; 0 never */
} MappingRule;

typedef struct {
	char *name;
	guint line;
	char *joints[TRACKER_N_JOINTS]; /* NULL keeps the built-in name */
	char *events[MAPPING_N_EVENTS];
	gboolean used;
} MappingNames;

/* How users are numbered on the wire: `user`, `chosen`, {user}, user = ID. */
typedef enum {
	MAPPING_IDS_UNIQUE, /* the tracker's ids: from 1 up, never given again */
	MAPPING_IDS_SLOT,   /* the lowest slot free, 1 to TRACKER_MAX_USERS (mapping-slots.h) */
} MappingIds;

typedef struct {
	char *path;
	char *description;
	MappingIds user_ids;
	GPtrArray *outputs;     /* MappingOutput */
	GPtrArray *rules;       /* MappingRule, in file order: messages go out in this order */
	GPtrArray *names;       /* MappingNames */
	GPtrArray *zones;       /* MappingZone */
	GPtrArray *warnings;    /* char *: "path:line: what" */
	GestureConfig gestures; /* the recognisers' thresholds, from [gestures] */
} Mapping;

/** mapping_new: an empty mapping, for the parser to fill. */
Mapping *mapping_new(const char *path);
void mapping_free(Mapping *mapping);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Mapping, mapping_free)

static inline const MappingOutput *
mapping_get_output(const Mapping *mapping, guint index)
{
	return g_ptr_array_index(mapping->outputs, index);
}

static inline const MappingRule *
mapping_get_rule(const Mapping *mapping, guint index)
{
	return g_ptr_array_index(mapping->rules, index);
}

/**
 * mapping_target_parse:
 * Parses "osc.udp://HOST:PORT", "osc.tcp://HOST:PORT" or
 * "ws://ADDRESS:PORT/PATH" (ADDRESS an IPv4 address or localhost) into
 * @target, which the caller clears with mapping_target_clear().
 */
gboolean mapping_target_parse(const char *text, MappingTarget *target, GError **error);
void mapping_target_clear(MappingTarget *target);
void mapping_target_copy(MappingTarget *dest, const MappingTarget *src);

/** mapping_target_to_string: the target as a URL, newly allocated. */
char *mapping_target_to_string(const MappingTarget *target);

/** mapping_output_equal: @a and @b send the same way to the same place. */
gboolean mapping_output_equal(const MappingOutput *a, const MappingOutput *b);

/**
 * mapping_target_listen_host: the address a ws target listens on:
 * "localhost" is 127.0.0.1. Two targets listen in one place when their
 * ports are the same and so are these addresses, or either is 0.0.0.0
 * (every address).
 */
const char *mapping_target_listen_host(const MappingTarget *target);

/** mapping_event_name: the built-in name ("new_user", "swipe_left"). */
const char *mapping_event_name(MappingEvent event);

/** mapping_rule_chooses: @rule speaks of one user it chooses (first, nearest, raised_hand). */
gboolean mapping_rule_chooses(const MappingRule *rule);

/** mapping_event_is_zone: @event is zone_enter or zone_leave. */
gboolean mapping_event_is_zone(MappingEvent event);

/**
 * mapping_box_parse:
 * Parses "X0:X1 Y0:Y1 Z0:Z1" (millimetres, each from low to high) into
 * @min and @max; FALSE with a @message (to free) saying what is expected.
 */
gboolean mapping_box_parse(const char *text, TrackerVec3 *min, TrackerVec3 *max, char **message);

static inline const MappingZone *
mapping_get_zone(const Mapping *mapping, guint index)
{
	return g_ptr_array_index(mapping->zones, index);
}

/**
 * mapping_bridge_name_check:
 * @name can be a bridge's name: 1 to MAPPING_BRIDGE_MAX_NAME letters,
 * digits, '-', '_' or '.', which OSC addresses and TUIO source names take
 * as they are. Otherwise FALSE with @message (to free) saying why.
 */
gboolean mapping_bridge_name_check(const char *name, char **message);

/**
 * mapping_set_bridge_name:
 * Puts @name (checked) for every {bridge} in @mapping's addresses; without
 * it {bridge} stands for MAPPING_BRIDGE_NAME.
 */
void mapping_set_bridge_name(Mapping *mapping, const char *name);

/** mapping_event_has_hand: @event is a gesture's or hand_close or hand_open. */
gboolean mapping_event_has_hand(MappingEvent event);

/** mapping_event_is_gesture: @event is a gesture's (swipe_left... arms_out). */
gboolean mapping_event_is_gesture(MappingEvent event);

/** mapping_event_from_gesture: the event that sends gesture @kind. */
MappingEvent mapping_event_from_gesture(GestureKind kind);

/** mapping_rule_wants_gestures: @rule sends some gesture's events. */
gboolean mapping_rule_wants_gestures(const MappingRule *rule);

/** mapping_wants_gestures: some rule of @mapping sends gesture events. */
gboolean mapping_wants_gestures(const Mapping *mapping);

/**
 * mapping_rule_n_values:
 * The arguments in each of @rule's messages: in a for = user rule the joint
 * values repeat per joint.
 */
guint mapping_rule_n_values(const MappingRule *rule);

/**
 * mapping_rule_max_message:
 * The size in bytes of the longest OSC message @rule can make: its address
 * with the longest names and ids, its type tags and its arguments.
 */
gsize mapping_rule_max_message(const MappingRule *rule);

/* What a bundle adds to a message: "#bundle", the time tag, the size. */
#define MAPPING_BUNDLE_OVERHEAD 20

/**
 * mapping_value_is_joint: @value is one of a joint's (joint, x, y, z, u, v,
 * confidence, angle, distance, speed, height, qw... roll).
 */
gboolean mapping_value_is_joint(MappingValue value);

/**
 * mapping_value_range: the range slot of x y z u v angle distance speed
 * height, or -1 for other values.
 */
int mapping_value_range(MappingValue value);
