#include "mapping-engine.h"

#include <math.h>
#include <string.h>

#include "base/depth.h"
#include "mapping-hands.h"
#include "mapping-slots.h"
#include "mapping-zones.h"
#include "measure.h"
#include "orientation.h"

/* space = screen: z from 0 at 0.5 m to 1 at 4.5 m, the Kinect's useful range. */
#define SCREEN_NEAR_MM 500.0
#define SCREEN_FAR_MM  4500.0

/* What a rule remembers about one user (user 0 stands for the frame). */
typedef struct {
	gboolean announced; /* new_skel went out */
	gboolean *sent;     /* per slot (joint, or 0): something was sent */
	gint64 *sent_us;    /* per slot: when */
	double *last;       /* per slot: the numbers sent, n_values each */
} RuleUser;

typedef struct {
	const MappingRule *rule;
	guint selected;   /* first/nearest/raised_hand: the user chosen in the last frame, 0 none */
	gint64 missed_us; /* ...when the chosen user was first missed, while held; or -1 */
	guint n_slots;    /* joints for joint rules, otherwise 1 */
	guint n_values;   /* arguments per message */
	GHashTable *users; /* user id -> RuleUser */
} RuleState;

/* One argument, before it goes into a batch. */
typedef struct {
	MessageArgType type;
	union {
		gint32 i;
		float f;
		const char *s;
	};
	double order; /* strings: what on_change compares (a hand's state); else unused */
} Value;

/* What one message is about. */
typedef struct {
	const TrackerFrame *frame;
	const TrackerUser *user; /* NULL for frame rules and for lost users */
	guint user_id;           /* 0 for frame rules */
	TrackerJointId joint;
	MappingEvent event;
	GestureHand hand; /* gesture events */
	guint zone;       /* zone events: index in Mapping.zones */
	guint chosen;     /* first, nearest, raised_hand: the rule's chosen user, 0 none */
} Subject;

/* A user's frame of reference for space = body. */
typedef struct {
	guint id;
	gboolean valid;     /* torso found this frame and a shoulder width known */
	TrackerVec3 origin; /* the torso, mm */
	double width;       /* shoulder width, mm, smoothed over frames */
} Body;

/* How fast the shoulder width follows its measurements, per frame. */
#define BODY_WIDTH_FOLLOW 0.1

/* A user of the previous frame: who, and where their joints were (for speed). */
typedef struct {
	guint id;
	gint64 time_us;
	TrackerJoint joints[TRACKER_N_JOINTS];
	gboolean raised; /* a hand above the head */
} Trail;

/* A hand is raised once it is this far above the head's centre, and
 * lowered once it is below it again. */
#define RAISE_MM 50.0

/* A joint's speed is measured between frames at most this far apart: over
 * a longer gap (a user lost for a moment) it would say nothing true. */
#define SPEED_MAX_GAP_US (G_USEC_PER_SEC / 2)

struct _MappingEngine {
	const Mapping *mapping;
	RuleState *rules;
	guint n_rules;
	Body bodies[TRACKER_MAX_USERS]; /* the users of this frame, in frame order */
	Trail known[TRACKER_MAX_USERS]; /* the users of the previous frame */
	guint n_known;
	TrackerCameraPose pose;             /* for height and room zones; floor unknown until set */
	MappingZones *zones;                /* who is in which zone */
	MappingHands *hands;                /* whose hands are closed */
	MappingSlots slots;                 /* each user's slot, kept whatever user_ids says */
	gboolean raised[TRACKER_MAX_USERS]; /* this frame's users, in frame order: a hand up */
	guint raiser;                       /* a user who raised a hand this frame, or 0 */
	gboolean needs_bodies;              /* some rule has space = body */
	gboolean needs_raised;              /* some rule has user = raised_hand */
	GString *address;                   /* scratch */
	Value values[MAPPING_MAX_ARGS];     /* scratch: the message being built */
	guint n_values;
	const GestureEvent *gestures; /* the frame's, while it is mapped */
	guint n_gestures;
};

static void
mapping_engine_rule_user_free(gpointer data)
{
	RuleUser *user = data;

	g_free(user->sent);
	g_free(user->sent_us);
	g_free(user->last);
	g_free(user);
}

static RuleUser *
mapping_engine_rule_user(RuleState *state, guint user_id)
{
	RuleUser *user = g_hash_table_lookup(state->users, GUINT_TO_POINTER(user_id));

	if (user != NULL)
		return user;
	user = g_new0(RuleUser, 1);
	user->sent = g_new0(gboolean, state->n_slots);
	user->sent_us = g_new0(gint64, state->n_slots);
	user->last = g_new0(double, (gsize)state->n_slots * state->n_values);
	g_hash_table_insert(state->users, GUINT_TO_POINTER(user_id), user);
	return user;
}

static void
mapping_engine_state_init(RuleState *state, const MappingRule *rule)
{
	state->rule = rule;
	state->n_slots = rule->scope == MAPPING_SCOPE_JOINT ? TRACKER_N_JOINTS : 1;
	state->n_values = mapping_rule_n_values(rule);
	state->users = g_hash_table_new_full(NULL, NULL, NULL, mapping_engine_rule_user_free);
	state->missed_us = -1;
}

/* The old engine's rule states by fingerprint, each list in file order
 * (identical rules share a fingerprint), so that a reload of many rules
 * adopts in linear time. */
static GHashTable *
mapping_engine_states_by_fingerprint(MappingEngine *previous)
{
	GHashTable *table =
	        g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_queue_free);

	for (guint i = 0; previous != NULL && i < previous->n_rules; i++) {
		RuleState *old = &previous->rules[i];
		GQueue *same = g_hash_table_lookup(table, old->rule->fingerprint);

		if (old->users == NULL)
			continue;
		if (same == NULL)
			g_hash_table_insert(table, old->rule->fingerprint, same = g_queue_new());
		g_queue_push_tail(same, old);
	}
	return table;
}

/* A rule whose text did not change takes its state over from the old
 * engine: the first such rule there not taken yet. */
static void
mapping_engine_adopt(RuleState *state, GHashTable *old_states)
{
	GQueue *same = g_hash_table_lookup(old_states, state->rule->fingerprint);
	RuleState *old = same != NULL ? g_queue_pop_head(same) : NULL;

	if (old == NULL)
		return;
	g_hash_table_unref(state->users);
	state->users = g_steal_pointer(&old->users);
}

MappingEngine *
mapping_engine_new(const Mapping *mapping, MappingEngine *previous)
{
	MappingEngine *engine = g_new0(MappingEngine, 1);
	g_autoptr(GHashTable) old_states = mapping_engine_states_by_fingerprint(previous);

	engine->mapping = mapping;
	engine->n_rules = mapping->rules->len;
	engine->rules = g_new0(RuleState, engine->n_rules);
	engine->address = g_string_sized_new(64);
	engine->zones = mapping_zones_new(mapping, previous != NULL ? previous->zones : NULL);
	engine->hands = mapping_hands_new(previous != NULL ? previous->hands : NULL);
	for (guint i = 0; i < engine->n_rules; i++) {
		mapping_engine_state_init(&engine->rules[i], mapping_get_rule(mapping, i));
		engine->needs_bodies |= mapping_get_rule(mapping, i)->space == MAPPING_SPACE_BODY;
		engine->needs_raised |= mapping_get_rule(mapping, i)->users == MAPPING_USERS_RAISED;
		mapping_engine_adopt(&engine->rules[i], old_states);
	}
	if (previous != NULL) {
		memcpy(engine->known, previous->known, sizeof(engine->known));
		engine->n_known = previous->n_known;
		memcpy(engine->bodies, previous->bodies, sizeof(engine->bodies));
		engine->pose = previous->pose;
		engine->slots = previous->slots;
	} else {
		mapping_slots_init(&engine->slots);
	}
	return engine;
}

void
mapping_engine_set_camera_pose(MappingEngine *engine, const TrackerCameraPose *pose)
{
	if (pose != NULL)
		engine->pose = *pose;
	else
		engine->pose.floor = TRACKER_FLOOR_UNKNOWN;
}

void
mapping_engine_free(MappingEngine *engine)
{
	if (engine == NULL)
		return;
	for (guint i = 0; i < engine->n_rules; i++)
		g_clear_pointer(&engine->rules[i].users, g_hash_table_unref);
	g_free(engine->rules);
	g_string_free(engine->address, TRUE);
	mapping_zones_free(engine->zones);
	mapping_hands_free(engine->hands);
	g_free(engine);
}

/* ---- building one message ---- */

static gboolean
mapping_engine_found(const MappingRule *rule, const TrackerJoint *joint)
{
	/* Confidence 0 means not found, whatever min_confidence says. */
	return joint->confidence > 0 && joint->confidence >= rule->min_confidence;
}

static const Body *mapping_engine_body(const MappingEngine *engine, const Subject *subject);

/* Whether a user's positions can be told in the rule's space this frame. */
static gboolean
mapping_engine_space_ready(const MappingEngine *engine, const MappingRule *rule,
                           const Subject *subject)
{
	const Body *body;

	if (rule->space != MAPPING_SPACE_BODY)
		return TRUE;
	body = mapping_engine_body(engine, subject);
	return body != NULL && body->valid;
}

/* Linear, then bent by the curve within the output range, then clamped. */
static double
mapping_engine_scaled(const MappingRule *rule, MappingValue value, double raw)
{
	const MappingRange *range = &rule->ranges[mapping_value_range(value)];
	double scaled = raw * range->scale + range->offset;

	if (range->curve != 0) {
		double t = (scaled - range->from) / (range->to - range->from);

		t = expm1(range->curve * t) / expm1(range->curve);
		scaled = range->from + t * (range->to - range->from);
	}
	if (rule->clamp || range->clamp)
		scaled = CLAMP(scaled, range->low, range->high);
	return scaled;
}

static const Body *
mapping_engine_body(const MappingEngine *engine, const Subject *subject)
{
	for (guint i = 0; i < subject->frame->n_users && i < TRACKER_MAX_USERS; i++) {
		if (engine->bodies[i].id == subject->user_id)
			return &engine->bodies[i];
	}
	return NULL;
}

/* x y z of @joint in the rule's space, before scaling. */
static double
mapping_engine_coordinate(const MappingEngine *engine, const MappingRule *rule,
                          const Subject *subject, const TrackerJoint *joint, MappingValue value)
{
	double mm = value == MAPPING_VALUE_X   ? joint->position.x
	            : value == MAPPING_VALUE_Y ? joint->position.y
	                                       : joint->position.z;
	const Body *body;

	switch (rule->space) {
	case MAPPING_SPACE_SCREEN:
		return value == MAPPING_VALUE_X ? joint->u / DEPTH_WIDTH
		       : value == MAPPING_VALUE_Y
		               ? joint->v / DEPTH_HEIGHT
		               : (mm - SCREEN_NEAR_MM) / (SCREEN_FAR_MM - SCREEN_NEAR_MM);
	case MAPPING_SPACE_BODY:
		body = mapping_engine_body(engine, subject);
		mm -= value == MAPPING_VALUE_X   ? body->origin.x
		      : value == MAPPING_VALUE_Y ? body->origin.y
		                                 : body->origin.z;
		return mm / body->width;
	case MAPPING_SPACE_CAMERA:
		break;
	}
	return mm;
}

/* User @id as of the previous frame, or NULL when they were not in it. */
static const Trail *
mapping_engine_known(const MappingEngine *engine, guint id)
{
	for (guint i = 0; i < engine->n_known; i++) {
		if (engine->known[i].id == id)
			return &engine->known[i];
	}
	return NULL;
}

/* @subject's joint's speed since the previous frame, in mm per second;
 * NaN when it was not found then, or that frame is too long ago. */
static double
mapping_engine_speed(const MappingEngine *engine, const MappingRule *rule, const Subject *subject)
{
	const Trail *trail = mapping_engine_known(engine, subject->user_id);
	gint64 gap;

	if (trail == NULL || !mapping_engine_found(rule, &trail->joints[subject->joint]))
		return NAN;
	gap = subject->frame->time_us - trail->time_us;
	if (gap > SPEED_MAX_GAP_US)
		return NAN;
	return measure_speed(trail->joints[subject->joint].position,
	                     subject->user->joints[subject->joint].position, gap);
}

/* angle, distance, speed or height of @subject's joint, before scaling; NaN
 * (the message is left out) when a joint it needs is not found. */
static double
mapping_engine_measure(const MappingEngine *engine, const MappingRule *rule, const Subject *subject,
                       MappingValue value)
{
	const TrackerJoint *joints = subject->user->joints;
	const TrackerJoint *joint = &joints[subject->joint];
	TrackerJointId a, b;
	double mm;

	if (value == MAPPING_VALUE_ANGLE) {
		if (!measure_angle_bones(subject->joint, &a, &b) ||
		    !mapping_engine_found(rule, &joints[a]) ||
		    !mapping_engine_found(rule, &joints[b]))
			return NAN;
		return measure_angle(joint->position, joints[a].position, joints[b].position);
	}
	if (value == MAPPING_VALUE_HEIGHT)
		mm = tracker_camera_pose_height(&engine->pose, joint->position);
	else if (value == MAPPING_VALUE_DISTANCE)
		mm = mapping_engine_found(rule, &joints[rule->distance_to])
		             ? tracker_vec3_distance(joint->position,
		                                     joints[rule->distance_to].position)
		             : NAN;
	else
		mm = mapping_engine_speed(engine, rule, subject);
	if (rule->space == MAPPING_SPACE_BODY)
		mm /= mapping_engine_body(engine, subject)->width;
	return mm;
}

/* A component of the rotation @subject's joint carries (orientation.h),
 * as a quaternion or Euler angles; NaN when a joint it needs is not found. */
static double
mapping_engine_orientation(const MappingRule *rule, const Subject *subject, MappingValue value)
{
	gboolean found[TRACKER_N_JOINTS];
	double euler[3];
	OrientationQuat q;

	for (int j = 0; j < TRACKER_N_JOINTS; j++)
		found[j] = mapping_engine_found(rule, &subject->user->joints[j]);
	if (!orientation_joint(subject->user->joints, found, subject->joint,
	                       rule->space == MAPPING_SPACE_BODY, &q))
		return NAN;
	switch (value) {
	case MAPPING_VALUE_QW:
		return q.w;
	case MAPPING_VALUE_QX:
		return q.x;
	case MAPPING_VALUE_QY:
		return q.y;
	case MAPPING_VALUE_QZ:
		return q.z;
	default:
		break;
	}
	orientation_euler(q, &euler[0], &euler[1], &euler[2]);
	return euler[value - MAPPING_VALUE_YAW];
}

/* A hand's state and its confidence: unknown while the hand is not found. */
static Value
mapping_engine_hand_value(const Subject *subject, MappingValue value)
{
	static const char *const names[] = { [TRACKER_HAND_UNKNOWN] = "unknown",
		                             [TRACKER_HAND_OPEN] = "open",
		                             [TRACKER_HAND_CLOSED] = "closed" };
	int side =
	        subject->joint == TRACKER_JOINT_LEFT_HAND ? TRACKER_HAND_LEFT : TRACKER_HAND_RIGHT;
	TrackerHand hand = mapping_hands_seen(subject->user, side);
	Value out = { .type = MESSAGE_ARG_FLOAT32 };

	if (value == MAPPING_VALUE_HAND_CONFIDENCE) {
		out.f = (float)CLAMP(hand.confidence, 0.0, 1.0);
		return out;
	}
	out.type = MESSAGE_ARG_STRING;
	out.s = names[hand.state];
	out.order = hand.state;
	return out;
}

/* The number user @id goes by on the wire (and in user = ID): the
 * tracker's id, or their slot with user_ids = slot; 0 stays 0. Everything
 * else in the engine knows users by the tracker's id, so what it
 * remembers of someone never passes to whoever takes their slot. */
static guint
mapping_engine_wire_id(const MappingEngine *engine, guint id)
{
	if (engine->mapping->user_ids == MAPPING_IDS_UNIQUE)
		return id;
	return mapping_slots_get(&engine->slots, id);
}

static Value
mapping_engine_value(const MappingEngine *engine, const MappingRule *rule, const Subject *subject,
                     MappingValue value)
{
	Value out = { .type = MESSAGE_ARG_INT32 };
	const TrackerJoint *joint;
	double raw, scaled;

	switch (value) {
	case MAPPING_VALUE_FRAME:
		/* An int32 for receivers' sake: it wraps after two years at 30 fps. */
		out.i = (gint32)(subject->frame->frame & G_MAXINT32);
		return out;
	case MAPPING_VALUE_USERS:
		out.i = (gint32)subject->frame->n_users;
		return out;
	case MAPPING_VALUE_CHOSEN:
		out.i = (gint32)mapping_engine_wire_id(engine, subject->chosen);
		return out;
	case MAPPING_VALUE_ZONE_USERS:
		out.i = (gint32)mapping_zones_count(engine->zones, (guint)rule->zone);
		return out;
	case MAPPING_VALUE_ZONE:
		out.type = MESSAGE_ARG_STRING;
		out.s = mapping_get_zone(engine->mapping, subject->zone)->name;
		return out;
	case MAPPING_VALUE_USER:
		out.i = (gint32)mapping_engine_wire_id(engine, subject->user_id);
		return out;
	case MAPPING_VALUE_HAND:
		out.type = MESSAGE_ARG_STRING;
		out.s = gesture_hand_to_str(subject->hand);
		return out;
	case MAPPING_VALUE_EVENT:
	case MAPPING_VALUE_JOINT:
		out.type = MESSAGE_ARG_STRING;
		out.s = value == MAPPING_VALUE_EVENT ? rule->event_names[subject->event]
		                                     : rule->joint_names[subject->joint];
		return out;
	default:
		break;
	}
	joint = &subject->user->joints[subject->joint];
	if (value >= MAPPING_VALUE_HAND_STATE)
		return mapping_engine_hand_value(subject, value);
	out.type = MESSAGE_ARG_FLOAT32;
	if (value == MAPPING_VALUE_CONFIDENCE) {
		out.f = (float)joint->confidence;
		return out;
	}
	if (value >= MAPPING_VALUE_QW) {
		out.f = (float)mapping_engine_orientation(rule, subject, value);
		return out;
	}
	if (value >= MAPPING_VALUE_ANGLE)
		raw = mapping_engine_measure(engine, rule, subject, value);
	else if (value == MAPPING_VALUE_U || value == MAPPING_VALUE_V)
		raw = value == MAPPING_VALUE_U ? joint->u : joint->v;
	else
		raw = mapping_engine_coordinate(engine, rule, subject, joint, value);
	scaled = mapping_engine_scaled(rule, value, raw);
	/* (Not a number: left a float32 for mapping_engine_compose() to drop.) */
	if (rule->ranges[mapping_value_range(value)].as_int && isfinite(scaled)) {
		out.type = MESSAGE_ARG_INT32;
		out.i = (gint32)lround(CLAMP(scaled, (double)G_MININT32, (double)G_MAXINT32));
	} else {
		out.f = (float)scaled;
	}
	return out;
}

static void
mapping_engine_push(MappingEngine *engine, const MappingRule *rule, const Subject *subject,
                    MappingValue value)
{
	engine->values[engine->n_values++] = mapping_engine_value(engine, rule, subject, value);
}

/* The joint values args[first..end) once for every joint of the rule. */
static void
mapping_engine_push_group(MappingEngine *engine, const MappingRule *rule, const Subject *subject,
                          guint first, guint end)
{
	Subject each = *subject;

	for (guint j = 0; j < rule->n_joints; j++) {
		each.joint = rule->joints[j];
		for (guint k = first; k < end; k++)
			mapping_engine_push(engine, rule, &each, rule->args[k]);
	}
}

/* The message's values; FALSE when a float32 is not a number or infinite
 * (receivers misread them: Pd takes inf for a huge number, NaN for
 * anything), and the message is not sent, as for a joint not found. */
static gboolean
mapping_engine_compose(MappingEngine *engine, const MappingRule *rule, const Subject *subject)
{
	engine->n_values = 0;
	for (guint i = 0; i < rule->n_args;) {
		guint end = i + 1;

		if (rule->scope == MAPPING_SCOPE_USER && mapping_value_is_joint(rule->args[i])) {
			while (end < rule->n_args && mapping_value_is_joint(rule->args[end]))
				end++;
			mapping_engine_push_group(engine, rule, subject, i, end);
		} else {
			mapping_engine_push(engine, rule, subject, rule->args[i]);
		}
		i = end;
	}
	for (guint k = 0; k < engine->n_values; k++) {
		if (engine->values[k].type == MESSAGE_ARG_FLOAT32 && !isfinite(engine->values[k].f))
			return FALSE;
	}
	return TRUE;
}

static void
mapping_engine_address(MappingEngine *engine, const MappingRule *rule, const Subject *subject)
{
	g_string_truncate(engine->address, 0);
	for (guint i = 0; i < rule->n_address; i++) {
		const MappingPart *part = &rule->address[i];

		switch (part->kind) {
		case MAPPING_PART_TEXT:
			g_string_append(engine->address, part->text);
			break;
		case MAPPING_PART_USER:
			g_string_append_printf(engine->address, "%u",
			                       mapping_engine_wire_id(engine, subject->user_id));
			break;
		case MAPPING_PART_JOINT:
			g_string_append(engine->address, rule->joint_names[subject->joint]);
			break;
		case MAPPING_PART_EVENT:
			g_string_append(engine->address, rule->event_names[subject->event]);
			break;
		case MAPPING_PART_HAND:
			g_string_append(engine->address, gesture_hand_to_str(subject->hand));
			break;
		case MAPPING_PART_ZONE:
			g_string_append(engine->address,
			                mapping_get_zone(engine->mapping, subject->zone)->name);
			break;
		case MAPPING_PART_BRIDGE:
			g_string_append(engine->address, MAPPING_BRIDGE_NAME);
			break;
		}
	}
}

static double
mapping_engine_number(const Value *value)
{
	if (value->type == MESSAGE_ARG_STRING)
		return value->order;
	return value->type == MESSAGE_ARG_INT32 ? value->i : value->f;
}

/* on_change: whether the message built in engine->values is worth sending,
 * remembering it when it is. */
static gboolean
mapping_engine_changed(MappingEngine *engine, RuleState *state, const Subject *subject, guint slot)
{
	const MappingRule *rule = state->rule;
	RuleUser *user = mapping_engine_rule_user(state, subject->user_id);
	/* A message without numbers has no remembered values (and no array). */
	double *last = state->n_values > 0 ? user->last + (gsize)slot * state->n_values : NULL;
	gint64 now = subject->frame->time_us;
	gboolean send = !user->sent[slot] ||
	                (rule->refresh_us > 0 && now - user->sent_us[slot] >= rule->refresh_us);

	for (guint k = 0; k < engine->n_values && !send; k++)
		send = fabs(mapping_engine_number(&engine->values[k]) - last[k]) > rule->change;
	if (!send)
		return FALSE;
	for (guint k = 0; k < engine->n_values; k++)
		last[k] = mapping_engine_number(&engine->values[k]);
	user->sent[slot] = TRUE;
	user->sent_us[slot] = now;
	return TRUE;
}

/* max_rate: whether this slot's last message is long enough ago. Frames
 * come a little early or late: a tenth of the interval (at most 5 ms) of
 * slack keeps 10 Hz from a 30 fps camera at every third frame. */
static gboolean
mapping_engine_rate_allows(RuleState *state, const Subject *subject, guint slot)
{
	const RuleUser *user = mapping_engine_rule_user(state, subject->user_id);
	gint64 interval = state->rule->min_interval_us;
	gint64 slack = MIN(interval / 10, 5000);

	return !user->sent[slot] ||
	       subject->frame->time_us - user->sent_us[slot] + slack >= interval;
}

static void
mapping_engine_mark_sent(RuleState *state, const Subject *subject, guint slot)
{
	RuleUser *user = mapping_engine_rule_user(state, subject->user_id);

	user->sent[slot] = TRUE;
	user->sent_us[slot] = subject->frame->time_us;
}

static void
mapping_engine_emit(MappingEngine *engine, RuleState *state, const Subject *subject, guint slot,
                    MessageBatch *batch)
{
	const MappingRule *rule = state->rule;

	if (rule->min_interval_us > 0 && !mapping_engine_rate_allows(state, subject, slot))
		return;
	if (!mapping_engine_compose(engine, rule, subject))
		return;
	if (rule->on_change && !mapping_engine_changed(engine, state, subject, slot))
		return;
	if (rule->min_interval_us > 0)
		mapping_engine_mark_sent(state, subject, slot);
	mapping_engine_address(engine, rule, subject);
	message_batch_add(batch, subject->user_id, engine->address->str);
	for (guint k = 0; k < engine->n_values; k++) {
		const Value *value = &engine->values[k];

		if (value->type == MESSAGE_ARG_INT32)
			message_batch_add_int32(batch, value->i);
		else if (value->type == MESSAGE_ARG_FLOAT32)
			message_batch_add_float32(batch, value->f);
		else
			message_batch_add_string(batch, value->s);
	}
}

/* ---- rules ---- */

static gboolean
mapping_engine_user_complete(const MappingRule *rule, const TrackerUser *user)
{
	for (guint j = 0; j < rule->n_joints; j++) {
		if (!mapping_engine_found(rule, &user->joints[rule->joints[j]]))
			return FALSE;
	}
	return TRUE;
}

static Subject
mapping_engine_subject(const RuleState *state, const TrackerFrame *frame, const TrackerUser *user)
{
	Subject subject = { .frame = frame,
		            .user = user,
		            .user_id = user ? user->id : 0,
		            .joint = TRACKER_JOINT_HEAD,
		            .chosen = state->selected };

	return subject;
}

/* user = first or nearest: the id of the user the rule speaks of, 0 for none. */
static guint
mapping_engine_choose_among(const MappingRule *rule, const TrackerFrame *frame)
{
	const TrackerUser *chosen = NULL;

	for (guint u = 0; u < frame->n_users; u++) {
		const TrackerUser *user = &frame->users[u];

		if (chosen == NULL ||
		    (rule->users == MAPPING_USERS_FIRST ? user->id < chosen->id
		                                        : user->centre.z < chosen->centre.z))
			chosen = user;
	}
	return chosen != NULL ? chosen->id : 0;
}

/* The user the rule chooses in @frame. With a hold, a chosen user out of
 * view keeps the role for hold_us and has it still on coming back; for
 * raised_hand, whoever raised a hand this frame takes it over, and the
 * one who has it keeps it while in view (or held). */
static guint
mapping_engine_choose(const MappingEngine *engine, RuleState *state, const TrackerFrame *frame)
{
	const MappingRule *rule = state->rule;
	gboolean present = tracker_frame_find_user(frame, state->selected) != NULL;

	if (rule->users == MAPPING_USERS_RAISED && engine->raiser != 0)
		return engine->raiser;
	if (present || state->selected == 0)
		state->missed_us = -1;
	else if (state->missed_us < 0)
		state->missed_us = frame->time_us;
	if (state->missed_us >= 0 && frame->time_us - state->missed_us < rule->hold_us)
		return state->selected;
	if (rule->users == MAPPING_USERS_RAISED)
		return present ? state->selected : 0;
	return mapping_engine_choose_among(rule, frame);
}

/* Whether the rule speaks of user @id in this frame (state->selected is
 * this frame's choice while the rule runs). */
static gboolean
mapping_engine_selected(const MappingEngine *engine, const RuleState *state, guint id)
{
	switch (state->rule->users) {
	case MAPPING_USERS_ALL:
		return TRUE;
	case MAPPING_USERS_ID:
		return mapping_engine_wire_id(engine, id) == state->rule->user_id;
	case MAPPING_USERS_ZONE:
		return mapping_zones_contains(engine->zones, state->rule->user_zone, id);
	case MAPPING_USERS_FIRST:
	case MAPPING_USERS_NEAREST:
	case MAPPING_USERS_RAISED:
		break;
	}
	return id == state->selected;
}

static void
mapping_engine_users(MappingEngine *engine, RuleState *state, const TrackerFrame *frame,
                     MessageBatch *batch)
{
	for (guint u = 0; u < frame->n_users; u++) {
		Subject subject = mapping_engine_subject(state, frame, &frame->users[u]);

		if (mapping_engine_selected(engine, state, subject.user_id) &&
		    mapping_engine_space_ready(engine, state->rule, &subject) &&
		    mapping_engine_user_complete(state->rule, subject.user))
			mapping_engine_emit(engine, state, &subject, 0, batch);
	}
}

static void
mapping_engine_joints(MappingEngine *engine, RuleState *state, const TrackerFrame *frame,
                      MessageBatch *batch)
{
	const MappingRule *rule = state->rule;

	for (guint u = 0; u < frame->n_users; u++) {
		Subject subject = mapping_engine_subject(state, frame, &frame->users[u]);

		if (!mapping_engine_selected(engine, state, subject.user_id) ||
		    !mapping_engine_space_ready(engine, rule, &subject))
			continue;
		for (guint j = 0; j < rule->n_joints; j++) {
			subject.joint = rule->joints[j];
			if (mapping_engine_found(rule, &subject.user->joints[subject.joint]))
				mapping_engine_emit(engine, state, &subject, subject.joint, batch);
		}
	}
}

static void
mapping_engine_new_users(MappingEngine *engine, RuleState *state, Subject *subject,
                         MessageBatch *batch)
{
	for (guint u = 0; u < subject->frame->n_users; u++) {
		subject->user = &subject->frame->users[u];
		subject->user_id = subject->user->id;
		if (mapping_engine_selected(engine, state, subject->user_id) &&
		    mapping_engine_known(engine, subject->user_id) == NULL)
			mapping_engine_emit(engine, state, subject, 0, batch);
	}
}

static void
mapping_engine_new_skeletons(MappingEngine *engine, RuleState *state, Subject *subject,
                             MessageBatch *batch)
{
	for (guint u = 0; u < subject->frame->n_users; u++) {
		RuleUser *user;

		subject->user = &subject->frame->users[u];
		subject->user_id = subject->user->id;
		if (!mapping_engine_selected(engine, state, subject->user_id))
			continue;
		user = mapping_engine_rule_user(state, subject->user_id);
		if (!user->announced && mapping_engine_user_complete(state->rule, subject->user)) {
			user->announced = TRUE;
			mapping_engine_emit(engine, state, subject, 0, batch);
		}
	}
}

/* Lost users are no longer in the frame: the subject has only their id.
 * A rule for the first or nearest user reports the one it last chose. */
static void
mapping_engine_lost_users(MappingEngine *engine, RuleState *state, guint previous, Subject *subject,
                          MessageBatch *batch)
{
	gboolean chooses = mapping_rule_chooses(state->rule);

	for (guint i = 0; i < engine->n_known; i++) {
		subject->user_id = engine->known[i].id;
		if (chooses ? subject->user_id != previous
		            : !mapping_engine_selected(engine, state, subject->user_id))
			continue;
		if (tracker_frame_find_user(subject->frame, subject->user_id) == NULL)
			mapping_engine_emit(engine, state, subject, 0, batch);
	}
}

/* This frame's comings into zones, or goings out, of @subject's event; a
 * user who went out of view has only their id. A rule for the users of a
 * zone hears of them coming and going, as they are in it on one side. */
static void
mapping_engine_zone_changes(MappingEngine *engine, RuleState *state, Subject *subject,
                            MessageBatch *batch)
{
	const MappingRule *rule = state->rule;
	gboolean into = subject->event == MAPPING_EVENT_ZONE_ENTER;
	const MappingZoneChange *changes;
	guint n;

	changes = mapping_zones_changes(engine->zones, &n);
	for (guint i = 0; i < n; i++) {
		const MappingZoneChange *change = &changes[i];

		if (change->into != into || (rule->zone >= 0 && (guint)rule->zone != change->zone))
			continue;
		if (rule->users == MAPPING_USERS_ZONE
		            ? change->zone != rule->user_zone
		            : !mapping_engine_selected(engine, state, change->user))
			continue;
		subject->user_id = change->user;
		subject->user = tracker_frame_find_user(subject->frame, change->user);
		subject->zone = change->zone;
		mapping_engine_emit(engine, state, subject, 0, batch);
	}
}

/* This frame's closings or openings of hands, of @subject's event; a user
 * who went out of view has only their id. */
static void
mapping_engine_hand_changes(MappingEngine *engine, RuleState *state, Subject *subject,
                            MessageBatch *batch)
{
	gboolean closing = subject->event == MAPPING_EVENT_HAND_CLOSE;
	guint n;
	const MappingHandChange *changes = mapping_hands_changes(engine->hands, &n);

	for (guint i = 0; i < n; i++) {
		if (changes[i].closed != closing ||
		    !mapping_engine_selected(engine, state, changes[i].user))
			continue;
		subject->user_id = changes[i].user;
		subject->user = tracker_frame_find_user(subject->frame, changes[i].user);
		subject->hand = changes[i].side == TRACKER_HAND_LEFT ? GESTURE_HAND_LEFT
		                                                     : GESTURE_HAND_RIGHT;
		mapping_engine_emit(engine, state, subject, 0, batch);
	}
}

/* The recognisers' events of this frame that are @subject's event. */
static void
mapping_engine_gestures(MappingEngine *engine, RuleState *state, Subject *subject,
                        MessageBatch *batch)
{
	for (guint i = 0; i < engine->n_gestures; i++) {
		const GestureEvent *gesture = &engine->gestures[i];

		if (mapping_event_from_gesture(gesture->kind) != subject->event)
			continue;
		subject->user_id = gesture->user;
		subject->user = tracker_frame_find_user(subject->frame, gesture->user);
		subject->hand = gesture->hand;
		mapping_engine_emit(engine, state, subject, 0, batch);
	}
}

static void
mapping_engine_event(MappingEngine *engine, RuleState *state, const TrackerFrame *frame,
                     MappingEvent event, guint previous, MessageBatch *batch)
{
	Subject subject = mapping_engine_subject(state, frame, NULL);

	subject.event = event;
	switch (event) {
	case MAPPING_EVENT_NEW_USER:
		mapping_engine_new_users(engine, state, &subject, batch);
		break;
	case MAPPING_EVENT_NEW_SKEL:
		mapping_engine_new_skeletons(engine, state, &subject, batch);
		break;
	case MAPPING_EVENT_LOST_USER:
		mapping_engine_lost_users(engine, state, previous, &subject, batch);
		break;
	case MAPPING_EVENT_ZONE_ENTER:
	case MAPPING_EVENT_ZONE_LEAVE:
		mapping_engine_zone_changes(engine, state, &subject, batch);
		break;
	case MAPPING_EVENT_HAND_CLOSE:
	case MAPPING_EVENT_HAND_OPEN:
		mapping_engine_hand_changes(engine, state, &subject, batch);
		break;
	case MAPPING_N_EVENTS:
		g_assert_not_reached();
	default: /* the gestures */
		mapping_engine_gestures(engine, state, &subject, batch);
		break;
	}
}

static void
mapping_engine_rule(MappingEngine *engine, RuleState *state, const TrackerFrame *frame,
                    MessageBatch *batch)
{
	const MappingRule *rule = state->rule;
	guint previous = state->selected;
	Subject subject;

	if (mapping_rule_chooses(rule))
		state->selected = mapping_engine_choose(engine, state, frame);
	switch (rule->scope) {
	case MAPPING_SCOPE_FRAME:
		subject = mapping_engine_subject(state, frame, NULL);
		mapping_engine_emit(engine, state, &subject, 0, batch);
		break;
	case MAPPING_SCOPE_USER:
		mapping_engine_users(engine, state, frame, batch);
		break;
	case MAPPING_SCOPE_JOINT:
		mapping_engine_joints(engine, state, frame, batch);
		break;
	case MAPPING_SCOPE_EVENT:
		for (guint e = 0; e < rule->n_events; e++)
			mapping_engine_event(engine, state, frame, rule->events[e], previous,
			                     batch);
		break;
	}
}

/* Forgets the users who left, and remembers who is here for the next frame. */
static void
mapping_engine_remember(MappingEngine *engine, const TrackerFrame *frame)
{
	for (guint i = 0; i < engine->n_known; i++) {
		if (tracker_frame_find_user(frame, engine->known[i].id) != NULL)
			continue;
		for (guint r = 0; r < engine->n_rules; r++)
			g_hash_table_remove(engine->rules[r].users,
			                    GUINT_TO_POINTER(engine->known[i].id));
	}
	engine->n_known = MIN(frame->n_users, TRACKER_MAX_USERS);
	for (guint u = 0; u < engine->n_known; u++) {
		engine->known[u].raised = engine->raised[u];
		engine->known[u].id = frame->users[u].id;
		engine->known[u].time_us = frame->time_us;
		memcpy(engine->known[u].joints, frame->users[u].joints,
		       sizeof(engine->known[u].joints));
	}
}

/* How far @p lies above @head, along the floor's up when it is known. */
static double
mapping_engine_above(const MappingEngine *engine, TrackerVec3 p, TrackerVec3 head)
{
	if (engine->pose.floor == TRACKER_FLOOR_UNKNOWN)
		return p.y - head.y;
	return tracker_camera_pose_height(&engine->pose, p) -
	       tracker_camera_pose_height(&engine->pose, head);
}

/* Whether @user holds a hand up, @was whether they did last frame. */
static gboolean
mapping_engine_hand_up(const MappingEngine *engine, const TrackerUser *user, gboolean was)
{
	const TrackerJoint *head = &user->joints[TRACKER_JOINT_HEAD];
	const TrackerJoint *hands[2] = { &user->joints[TRACKER_JOINT_LEFT_HAND],
		                         &user->joints[TRACKER_JOINT_RIGHT_HAND] };
	gboolean up = FALSE;

	if (head->confidence <= 0.0)
		return was;
	for (int h = 0; h < 2; h++)
		up |= hands[h]->confidence > 0.0 &&
		      mapping_engine_above(engine, hands[h]->position, head->position) >
		              (was ? 0.0 : RAISE_MM);
	return up;
}

/* Who holds a hand up this frame, and who raised one (the lowest id when
 * several did at once). */
static void
mapping_engine_update_raised(MappingEngine *engine, const TrackerFrame *frame)
{
	engine->raiser = 0;
	for (guint u = 0; u < frame->n_users && u < TRACKER_MAX_USERS; u++) {
		const TrackerUser *user = &frame->users[u];
		const Trail *before = mapping_engine_known(engine, user->id);
		gboolean was = before != NULL && before->raised;

		engine->raised[u] = mapping_engine_hand_up(engine, user, was);
		if (engine->raised[u] && !was && (engine->raiser == 0 || user->id < engine->raiser))
			engine->raiser = user->id;
	}
}

/* Each user's torso and smoothed shoulder width, for space = body. */
static void
mapping_engine_update_bodies(MappingEngine *engine, const TrackerFrame *frame)
{
	Body previous[TRACKER_MAX_USERS];

	memcpy(previous, engine->bodies, sizeof(previous));
	memset(engine->bodies, 0, sizeof(engine->bodies));
	for (guint u = 0; u < frame->n_users && u < TRACKER_MAX_USERS; u++) {
		const TrackerUser *user = &frame->users[u];
		const TrackerJoint *torso = &user->joints[TRACKER_JOINT_TORSO];
		const TrackerJoint *left = &user->joints[TRACKER_JOINT_LEFT_SHOULDER];
		const TrackerJoint *right = &user->joints[TRACKER_JOINT_RIGHT_SHOULDER];
		Body *body = &engine->bodies[u];

		body->id = user->id;
		for (guint i = 0; i < TRACKER_MAX_USERS; i++) {
			if (previous[i].id == user->id)
				body->width = previous[i].width;
		}
		if (left->confidence > 0 && right->confidence > 0) {
			double width = tracker_vec3_distance(left->position, right->position);

			if (width > 1)
				body->width = body->width > 0
				                      ? body->width + BODY_WIDTH_FOLLOW *
				                                              (width - body->width)
				                      : width;
		}
		body->origin = torso->position;
		body->valid = torso->confidence > 0 && body->width > 0;
	}
}

void
mapping_engine_run(MappingEngine *engine, const TrackerFrame *frame, MessageBatch *const *batches)
{
	mapping_engine_run_gestures(engine, frame, NULL, 0, batches);
}

void
mapping_engine_run_gestures(MappingEngine *engine, const TrackerFrame *frame,
                            const GestureEvent *gestures, guint n_gestures,
                            MessageBatch *const *batches)
{
	engine->gestures = gestures;
	engine->n_gestures = n_gestures;
	for (guint o = 0; o < engine->mapping->outputs->len; o++)
		message_batch_clear(batches[o]);
	mapping_slots_update(&engine->slots, frame);
	if (engine->needs_bodies)
		mapping_engine_update_bodies(engine, frame);
	mapping_zones_update(engine->zones, frame, &engine->pose);
	mapping_hands_update(engine->hands, frame);
	if (engine->needs_raised)
		mapping_engine_update_raised(engine, frame);
	for (guint r = 0; r < engine->n_rules; r++)
		mapping_engine_rule(engine, &engine->rules[r], frame,
		                    batches[engine->rules[r].rule->output]);
	mapping_engine_remember(engine, frame);
	engine->gestures = NULL;
	engine->n_gestures = 0;
}
