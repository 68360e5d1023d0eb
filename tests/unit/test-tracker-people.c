/* The tracker on people and things it must tell apart, in scenes drawn
 * for each test with the demo renderer (a script of its own: a person at
 * a pose and distance, furniture): people so near that the image's top
 * cuts them, walls and doors the top cuts, things shaped like a person
 * that are not one, people seated, and people the image's sides cut.
 * Each scene runs through a fresh tracker, 30 frames a second from time
 * 0.
 *
 * Some cases are known gaps: a check the tracker does not pass yet in
 * that scene is reported as an expected failure (TAP TODO) with what it
 * did; any other check that does not hold fails the test. */
#include <math.h>
#include <string.h>

#include "base/stats.h"
#include "demo/demo-scene.h"
#include "score.h"
#include "tracker/tracker-segment.h"
#include "tracker/tracker.h"

#define FRAME_US    33333 /* 30 frames a second */
#define STAGE_ITEMS 4
#define STAGE_CAST  2
/* A joint's place is known to about this (the benchmark's "found"): one
 * true place this far past the image's edge is out of view, whatever the
 * tracker's error. */
#define MARGIN_MM 100.0
/* A user is reported within this many frames of coming into view. */
#define VERIFY_FRAMES 3

/* Checks a case may be known not to pass yet. */
typedef enum {
	GAP_NONE = 0,
	GAP_FOUND = 1 << 0,   /* the person is one user on every frame */
	GAP_IN_VIEW = 1 << 1, /* joints out of view are left out */
	GAP_NOBODY = 1 << 2,  /* no user where there is no one */
} Gap;

/* A scene being played: its script, and the tracker it goes through. */
typedef struct {
	DemoKey keys[STAGE_CAST][2];
	DemoActor cast[STAGE_CAST];
	DemoItem items[STAGE_ITEMS];
	DemoScript script;
	DemoScene *scene;
	DepthFrame *frame;
	Tracker *tracker;
	TrackerFrame out;
	guint64 n_frames;
} Stage;

static void
stage_setup(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;

	s->script.name = "people";
	s->script.duration = 10.0;
	s->script.actors = s->cast;
	s->script.items = s->items;
	s->frame = depth_frame_new();
	s->tracker = tracker_new(NULL, &error);
	g_assert_no_error(error);
}

static void
stage_teardown(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	s->frame->truth = NULL; /* the scene's */
	depth_frame_free(s->frame);
	demo_scene_free(s->scene);
	tracker_free(s->tracker);
}

/* The sensor @height mm up, tilted down @pitch_deg, through the Kinect
 * model; a back wall at @wall_z and a ceiling at 2.6 m. */
static void
stage_room(Stage *s, double height, double pitch_deg, double wall_z)
{
	s->script.room = (DemoRoom){ .camera_height = height,
		                     .pitch = pitch_deg * G_PI / 180.0,
		                     .wall_z = wall_z,
		                     .ceiling_y = 2600.0,
		                     .noise = TRUE,
		                     .sensor = DEMO_SENSOR_KINECT };
}

/* A person @height mm tall at (@x, @z), facing the sensor, arms in @arms,
 * from @from seconds on; on a seat @seat mm high when that is not 0. */
static void
stage_person(Stage *s, double height, double x, double z, DemoArm arms, double seat, double from)
{
	guint i = s->script.n_actors++;
	DemoLegs legs = seat > 0.0 ? DEMO_LEGS_SIT : DEMO_LEGS_STAND;

	g_assert_cmpuint(i, <, STAGE_CAST);
	s->keys[i][0] = (DemoKey){
		.t = from, .x = x, .z = z, .left = arms, .right = arms, .legs = legs, .seat = seat
	};
	s->keys[i][1] = s->keys[i][0];
	s->keys[i][1].t = s->script.duration;
	s->cast[i] = (DemoActor){ .height = height,
		                  .keys = s->keys[i],
		                  .n_keys = 2,
		                  .girth = 1.0,
		                  .look = { DEMO_MATERIAL_HAIR, DEMO_MATERIAL_MATTE,
		                            DEMO_MATERIAL_MATTE, DEMO_HEAD_OVAL } };
}

static void
stage_item(Stage *s, DemoItem item)
{
	g_assert_cmpuint(s->script.n_items, <, STAGE_ITEMS);
	s->items[s->script.n_items++] = item;
}

/* Renders the next frame and tracks it; the truth is the frame's. */
static const DemoTruth *
stage_track(Stage *s)
{
	g_autoptr(GError) error = NULL;
	guint64 n = s->n_frames++;

	if (s->scene == NULL)
		s->scene = demo_scene_new(&s->script, 1);
	demo_scene_render(s->scene, n, s->frame);
	g_assert_true(tracker_process(s->tracker, s->frame->mm, n, (gint64)n * FRAME_US, &s->out,
	                              &error));
	g_assert_no_error(error);
	return s->frame->truth;
}

/* A check that did not hold @bad times: a failure, or an expected one
 * when the case lists it among its @gaps. */
static void
stage_expect(guint gaps, Gap gap, guint bad, const char *what)
{
	if (bad == 0)
		return;
	if (gaps & gap)
		g_test_incomplete(what);
	else
		g_test_fail_printf("%s", what);
}

/* ---- joints and the image ---- */

static gboolean
joint_in_image(const TrackerCamera *c, double u, double v, double margin)
{
	return u >= -margin && v >= -margin && u < c->width + margin && v < c->height + margin;
}

/* Every joint given with confidence is in the image, as the tracker
 * places it: what it would have to guess outside, it leaves out. */
static void
assert_confident_joints_in_image(const Stage *s)
{
	const TrackerCamera *c = &tracker_get_settings(s->tracker)->camera;

	for (guint u = 0; u < s->out.n_users; u++) {
		for (int j = 0; j < TRACKER_N_JOINTS; j++) {
			const TrackerJoint *joint = &s->out.users[u].joints[j];

			if (joint->confidence > 0.0 && !joint_in_image(c, joint->u, joint->v, 0.0))
				g_error("user %u's %s at (%.0f, %.0f) with confidence %.2f",
				        s->out.users[u].id, tracker_joint_name(j), joint->u,
				        joint->v, joint->confidence);
		}
	}
}

/* How many of @user's joints whose true place is well out of the image
 * (MARGIN_MM past an edge) the tracker gives with confidence: dragged
 * into view. The first is described into @what. */
static guint
joints_dragged(const Stage *s, const TrackerUser *user, const DemoTruthPerson *truth, GString *what)
{
	const TrackerCamera *c = &tracker_get_settings(s->tracker)->camera;
	guint dragged = 0;

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		const TrackerJoint *joint = &user->joints[j];
		double margin = MARGIN_MM * c->fx / MAX(truth->joints[j].z, 1.0);

		if (joint->confidence <= 0.0 || joint_in_image(c, truth->u[j], truth->v[j], margin))
			continue;
		if (dragged++ == 0 && what->len == 0)
			g_string_printf(what,
			                "frame %" G_GUINT64_FORMAT
			                ": %s out of view at (%.0f, %.0f)"
			                " given at (%.0f, %.0f) with confidence %.2f",
			                s->n_frames - 1, tracker_joint_name(j), truth->u[j],
			                truth->v[j], joint->u, joint->v, joint->confidence);
	}
	return dragged;
}

/* One person, tracked for @frames frames: on how many frames they are
 * one user, and how many joints out of view were given with confidence
 * over them all (the first described into @what). Confident joints are
 * in the image on every frame. */
static guint
stage_watch_one(Stage *s, guint frames, guint *dragged, GString *what)
{
	guint found = 0;

	*dragged = 0;
	for (guint i = 0; i < frames; i++) {
		const DemoTruth *truth = stage_track(s);

		g_assert_cmpuint(truth->n_people, ==, 1);
		assert_confident_joints_in_image(s);
		if (s->out.n_users != 1)
			continue;
		found++;
		*dragged += joints_dragged(s, &s->out.users[0], &truth->people[0], what);
	}
	return found;
}

/* One person tracked for @frames frames is one user on every frame, and
 * no joint out of view is given with confidence; @gaps are the checks
 * known not to hold yet. */
static void
stage_check_one(Stage *s, guint frames, guint gaps)
{
	g_autoptr(GString) what = g_string_new(NULL);
	g_autofree char *found_what = NULL, *dragged_what = NULL;
	guint found, dragged;

	found = stage_watch_one(s, frames, &dragged, what);
	found_what = g_strdup_printf("one user on %u of %u frames", found, frames);
	stage_expect(gaps, GAP_FOUND, frames - found, found_what);
	dragged_what = g_strdup_printf("%u joints out of view given with confidence; %s", dragged,
	                               what->str);
	stage_expect(gaps, GAP_IN_VIEW, dragged, dragged_what);
}

/* ---- people the image's top cuts ---- */

typedef struct {
	double height, z; /* mm tall, standing this far off */
	DemoArm arms;
	guint gaps;
} NearCase;

#define TOP_CUT_FRAMES 10

/* The sensor 1.2 m up, level: a man 1.8 m tall standing 0.75 m off (his
 * chest about 0.63 m from the sensor) has his head and neck above the
 * picture, shoulders and trunk filling it; at 0.85 m (his chest 0.74 m
 * off) the image's top edge crosses his neck.
 * He is one user on every frame; his head, out of view, is left out
 * (confidence 0) rather than drawn in at the edge, and so are the knees
 * and feet below the picture. */
static void
test_top_cut(Stage *s, gconstpointer data)
{
	const NearCase *c = data;

	stage_room(s, 1200.0, 0.0, 3800.0);
	stage_person(s, c->height, 0.0, c->z, c->arms, 0.0, 0.0);
	stage_check_one(s, TOP_CUT_FRAMES, c->gaps);
}

/* The demo library's scene of this, "closeup-torso": a broad man 1.82 m
 * tall 0.93 m off, the sensor 1.2 m up, the top edge across his neck.
 * Known gap: his head, above the picture, is given at the edge with
 * confidence. */
static void
test_top_cut_library(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;

	s->scene = demo_scene_new_named("closeup-torso", 1, &error);
	g_assert_no_error(error);
	/* On some frames the run at the top is narrow enough for a head's
	 * lower half, and the head is given at the edge. */
	stage_check_one(s, TOP_CUT_FRAMES, GAP_IN_VIEW);
}

/* The same scene, the trunk: over its first second, the neck, torso and
 * shoulders are each given on every frame, their median distance from
 * the truth under 100 mm. The head above the picture was once put at the
 * edge, and the trunk hung from it a head's height too low: each of them
 * 110 to 160 mm off on every frame. */
#define TRUNK_FRAMES 30
static void
test_top_cut_trunk(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	static const int trunk[] = { TRACKER_JOINT_NECK, TRACKER_JOINT_TORSO,
		                     TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_RIGHT_SHOULDER };
	g_autoptr(GError) error = NULL;
	double off[G_N_ELEMENTS(trunk)][TRUNK_FRAMES];

	s->scene = demo_scene_new_named("closeup-torso", 1, &error);
	g_assert_no_error(error);
	for (guint i = 0; i < TRUNK_FRAMES; i++) {
		const DemoTruth *truth = stage_track(s);

		g_assert_cmpuint(s->out.n_users, ==, 1);
		for (guint j = 0; j < G_N_ELEMENTS(trunk); j++) {
			const TrackerJoint *joint = &s->out.users[0].joints[trunk[j]];

			g_assert_cmpfloat(joint->confidence, >, 0.0);
			off[j][i] = tracker_vec3_distance(joint->position,
			                                  truth->people[0].joints[trunk[j]]);
		}
	}
	for (guint j = 0; j < G_N_ELEMENTS(trunk); j++) {
		g_test_message("%s: median %.0f mm off", tracker_joint_name(trunk[j]),
		               stats_median(off[j], TRUNK_FRAMES));
		g_assert_cmpfloat(stats_median(off[j], TRUNK_FRAMES), <, 100.0);
	}
}

/* The people the segmenter alone sees on the stage's last frame (no
 * tracks to go on, no room learned), copied into @people. */
static guint
stage_segment(const Stage *s, TrackerPerson people[TRACKER_SEGMENT_MAX_PEOPLE])
{
	const TrackerSettings *settings = tracker_get_settings(s->tracker);
	TrackerSegmentParams params = { settings->min_user_pixels, settings->min_user_height_mm,
		                        settings->max_depth_mm, TRACKER_SEGMENT_MAX_PEOPLE };
	TrackerGrid grid;
	TrackerFloor floor;
	TrackerSegmenter *seg;
	g_autofree guint8 *room = NULL;
	const TrackerPerson *found;
	guint n_people;

	tracker_grid_init(&grid, &settings->camera);
	room = g_new0(guint8, grid.n);
	tracker_floor_init(&floor);
	tracker_grid_fill(&grid, s->frame->mm, settings->max_depth_mm);
	tracker_floor_update(&floor, &grid);
	seg = tracker_segmenter_new(&grid);
	tracker_segmenter_run(seg, &grid, &floor, room, &params, NULL, 0);
	found = tracker_segmenter_people(seg, &n_people);
	n_people = MIN(n_people, TRACKER_SEGMENT_MAX_PEOPLE);
	memcpy(people, found, n_people * sizeof(*people));
	tracker_segmenter_free(seg);
	tracker_grid_clear(&grid);
	return n_people;
}

/* The first person's head as the segmenter alone sees it on the stage's
 * last frame. */
static TrackerHead
stage_segment_head(const Stage *s, guint *n_people)
{
	TrackerPerson people[TRACKER_SEGMENT_MAX_PEOPLE];
	TrackerHead head = { 0 };

	*n_people = stage_segment(s, people);
	if (*n_people > 0)
		head = people[0].head;
	return head;
}

/* A person 1.65 m tall 0.85 or 0.95 m off, under a sensor 1.2 m up: the
 * image's top edge crosses their head. The segmenter finds the head cut
 * off by the top (cut_top), and the tracker gives it confidence 0.5, in
 * the image, on every frame. */
static void
test_top_cut_head(Stage *s, gconstpointer data)
{
	const NearCase *c = data;
	const TrackerCamera *camera = &tracker_get_settings(s->tracker)->camera;
	const DemoTruth *truth = NULL;
	guint n_people;
	TrackerHead head;

	stage_room(s, 1200.0, 0.0, 3800.0);
	stage_person(s, c->height, 0.0, c->z, c->arms, 0.0, 0.0);
	for (guint i = 0; i < TOP_CUT_FRAMES; i++) {
		const TrackerJoint *joint;

		truth = stage_track(s);
		assert_confident_joints_in_image(s);
		g_assert_cmpuint(s->out.n_users, ==, 1);
		joint = &s->out.users[0].joints[TRACKER_JOINT_HEAD];
		g_assert_cmpfloat(joint->confidence, ==, 0.5);
	}
	/* The scene is as meant: the head's centre within about its radius
	 * of the edge, part of it in view and part above. */
	g_assert_cmpfloat(fabs(truth->people[0].v[TRACKER_JOINT_HEAD]), <,
	                  0.07 * c->height * camera->fy / truth->people[0].joints[0].z);
	head = stage_segment_head(s, &n_people);
	g_assert_cmpuint(n_people, ==, 1);
	g_assert_true(head.found);
	g_assert_true(head.cut_top);
}

/* The demo library's "five-row" scene, its first frame: five people side
 * by side, the sensor tilted down, the top of the middle one's head (the
 * tallest, 2.5 m off, their third actor) just touching the image's top,
 * and the two nearest the sensor, at either end, with their heads above
 * it. The segmenter alone finds each of the five with a head: the three
 * heads in view whole where they are, the middle one's included (it was
 * taken for a wall's edge, and its person for part of their neighbour),
 * and the two at the ends cut off at the top. The one in the top right
 * corner has a shoulder past the image's side too: once refused for
 * that, they were lost for good when their track's hint aged out. */
static gboolean
crown_head_found(const TrackerPerson *people, guint n_people, const DemoTruthPerson *p,
                 gboolean cut_top, double within_mm)
{
	guint found = 0;

	for (guint q = 0; q < n_people; q++) {
		const TrackerHead *head = &people[q].head;

		found += head->found && head->cut_top == cut_top &&
		         tracker_vec3_distance(head->centre, p->joints[TRACKER_JOINT_HEAD]) <
		                 within_mm;
	}
	return found == 1;
}

static void
test_top_crown(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	const DemoTruth *truth;
	TrackerPerson people[TRACKER_SEGMENT_MAX_PEOPLE];
	guint n_people;

	s->scene = demo_scene_new_named("five-row", 1, &error);
	g_assert_no_error(error);
	truth = stage_track(s);
	g_assert_cmpuint(truth->n_people, ==, 5);
	g_assert_cmpuint(truth->people[2].id, ==, 3);
	n_people = stage_segment(s, people);
	g_assert_cmpuint(n_people, ==, 5);
	for (guint i = 0; i < 5; i++) {
		const DemoTruthPerson *p = &truth->people[i];
		gboolean above = p->v[TRACKER_JOINT_HEAD] < 0.0;

		g_assert_true(crown_head_found(people, n_people, p, above, i == 2 ? 100.0 : 250.0));
	}
	/* The scene is as meant: the two at the ends have their heads above. */
	g_assert_cmpfloat(truth->people[0].v[TRACKER_JOINT_HEAD], <, 0.0);
	g_assert_cmpfloat(truth->people[4].v[TRACKER_JOINT_HEAD], <, 0.0);
}

/* The same scene at 10.7 s: the tallest's hand is raised over the head
 * of the second from the left and lies across their face, and the left
 * arm of the man in front of the second lies across their neck and
 * chest. Their head joins the rest of the surface only through the
 * tallest's arm, and their body only through the shoulders the two
 * share. The segmenter alone gives the second their own body: the split
 * goes on under the arm in front, from their neck to their chest. Before,
 * it went round it: the tallest took all of the second but the head
 * (some 1300 of 21000 depth pixels), too little then to be anyone. */
#define BRIDGE_FRAME 320

static void
test_split_under_arm(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	const DemoTruth *truth;
	const DemoTruthPerson *p;
	TrackerPerson people[TRACKER_SEGMENT_MAX_PEOPLE];
	guint n_people, pixels = 0;

	s->scene = demo_scene_new_named("five-row", 1, &error);
	g_assert_no_error(error);
	s->n_frames = BRIDGE_FRAME;
	truth = stage_track(s);
	g_assert_cmpuint(truth->n_people, ==, 5);
	p = &truth->people[1];
	n_people = stage_segment(s, people);
	for (guint q = 0; q < n_people; q++) {
		if (people[q].head.found &&
		    tracker_vec3_distance(people[q].head.centre, p->joints[TRACKER_JOINT_HEAD]) <
		            150.0)
			pixels = people[q].n_pixels;
	}
	g_assert_cmpuint(pixels, >, p->pixels / 2);
	g_assert_cmpuint(pixels, <, 2 * p->pixels);
}

/* ---- walls and doors the image's top cuts ---- */

typedef struct {
	DemoItem item;
	guint gaps;
} ThingCase;

/* A wall's end, the wall stubs either side of a doorway (each a strip a
 * head or two wide from the floor up past the image's top), an open
 * door: the sensor 1.2 m up, level, with them 1.5 m off. No user, on any
 * frame. */
static void
test_top_cut_thing(Stage *s, gconstpointer data)
{
	const ThingCase *c = data;
	guint frames_with_users = 0;
	g_autofree char *what = NULL;

	stage_room(s, 1200.0, 0.0, 0.0);
	stage_item(s, c->item);
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_WALL, .z = 4000, .w = 6000, .h = 2600 });
	for (guint i = 0; i < TOP_CUT_FRAMES; i++) {
		stage_track(s);
		frames_with_users += s->out.n_users > 0;
	}
	what = g_strdup_printf("a user on %u of %u frames", frames_with_users, TOP_CUT_FRAMES);
	stage_expect(c->gaps, GAP_NOBODY, frames_with_users, what);
}

/* ---- a user only once their body is a person's ---- */

#define COAT_STAND_FRAMES 60

/* The first frame with a user, after @frames frames, or -1. From then
 * on every frame has that one user, id 1. */
static int
stage_first_user(Stage *s, guint frames)
{
	int first = -1;

	for (guint i = 0; i < frames; i++) {
		stage_track(s);
		assert_confident_joints_in_image(s);
		if (first < 0 && s->out.n_users > 0)
			first = (int)i;
		if (first < 0)
			continue;
		g_assert_cmpuint(s->out.n_users, ==, 1);
		g_assert_cmpuint(s->out.users[0].id, ==, 1);
	}
	return first;
}

/* Someone standing 2.5 m off, the sensor 1 m up and level: their legs
 * fill the column where legs would be. Reported within a few frames, as
 * user 1. */
static void
test_verify_standing(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	int first;

	stage_room(s, 1000.0, 0.0, 3500.0);
	stage_person(s, 1750.0, 0.0, 2500.0, DEMO_ARM_DOWN, 0.0, 0.0);
	first = stage_first_user(s, 10);
	g_assert_cmpint(first, >=, 0);
	g_assert_cmpint(first, <, VERIFY_FRAMES);
}

/* Someone seated on a chair 2.5 m off, thighs forward and shins down,
 * the sensor 0.7 m up and level: it sees under the seat, past where a
 * standing person's legs would be, but the legs are there, forward.
 * Reported within a few frames. */
static void
test_verify_seated(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	int first;

	stage_room(s, 700.0, 0.0, 3500.0);
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_CHAIR, .z = 2500 });
	stage_person(s, 1750.0, 0.0, 2570.0, DEMO_ARM_DOWN, DEMO_KIT_CHAIR_SEAT, 0.0);
	first = stage_first_user(s, 10);
	g_assert_cmpint(first, >=, 0);
	g_assert_cmpint(first, <, VERIFY_FRAMES);
}

/* Someone standing behind a cabinet that hides their legs: nothing seen
 * through where the legs are. Reported within a few frames. */
static void
test_verify_legs_hidden(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	int first;

	stage_room(s, 1000.0, 0.0, 3500.0);
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_CABINET, .z = 2100 });
	stage_person(s, 1750.0, 0.0, 2600.0, DEMO_ARM_DOWN, 0.0, 0.0);
	first = stage_first_user(s, 10);
	g_assert_cmpint(first, >=, 0);
	g_assert_cmpint(first, <, VERIFY_FRAMES);
}

/* A coat stand 2.5 m off, a wall a metre behind it, the sensor 1 m up
 * and level: a hat on a pole over coats, a head and a torso in outline
 * (the segmenter alone takes it for a person, its hat a whole head in
 * view), but the sensor sees the wall past its pole where legs would be.
 * Never a user, over two seconds. */
static void
test_verify_coat_stand(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	guint n_people;
	TrackerHead head;

	stage_room(s, 1000.0, 0.0, 3500.0);
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_COAT_STAND, .x = -500, .z = 2500 });
	for (guint i = 0; i < COAT_STAND_FRAMES; i++) {
		stage_track(s);
		g_assert_cmpuint(s->out.n_users, ==, 0);
		if (i > 0)
			continue;
		head = stage_segment_head(s, &n_people);
		g_assert_cmpuint(n_people, ==, 1);
		g_assert_true(head.found);
		g_assert_false(head.cut_top);
	}
}

/* A potted plant 2.5 m off, the sensor 1 m up and level: leaves in
 * clumps, a head and shoulders in outline, over a stem and a pot that
 * fill where legs would be but for the stem between them. Never a user,
 * over two seconds. */
static void
test_verify_plant(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	stage_room(s, 1000.0, 0.0, 3500.0);
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_PLANT, .x = -500, .z = 2500 });
	for (guint i = 0; i < COAT_STAND_FRAMES; i++) {
		stage_track(s);
		g_assert_cmpuint(s->out.n_users, ==, 0);
	}
}

/* A plant 4.2 m off behind a chair, the sensor at eye height, level (the
 * demo's camera scenes): the chair hides where its stem meets the pot,
 * so that nothing says whether legs are there, and its outline is a
 * head on shoulders. Its leaves are no torso: never a user. */
static void
test_verify_plant_chair(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	stage_room(s, 1650.0, 0.0, 5000.0);
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_PLANT, .x = 1700, .z = 4200 });
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_CHAIR, .x = 1300, .z = 3800, .yaw_deg = 20 });
	for (guint i = 0; i < COAT_STAND_FRAMES; i++) {
		stage_track(s);
		g_assert_cmpuint(s->out.n_users, ==, 0);
	}
}

/* Plays the library's @name (seed 1) to frame @until, scoring frames
 * @from on into @tally. */
static void
stage_play_seeded(Stage *s, const char *name, guint seed, guint from, guint until,
                  ScoreTally *tally)
{
	g_autoptr(GError) error = NULL;

	s->scene = demo_scene_new_named(name, seed, &error);
	g_assert_no_error(error);
	for (guint i = 0; i < until; i++) {
		const DemoTruth *truth = stage_track(s);

		if (i >= from)
			score_frame(truth, &s->out, tally);
	}
}

static void
stage_play_named(Stage *s, const char *name, guint from, guint until, ScoreTally *tally)
{
	stage_play_seeded(s, name, 1, from, until, tally);
}

/* Plays @name with noise @seed as stage_play_seeded(), and asserts that
 * no user matched no one on frames @from to @until. */
static void
stage_assert_no_phantom(Stage *s, const char *name, guint seed, guint from, guint until,
                        ScoreTally *tally)
{
	stage_play_seeded(s, name, seed, from, until, tally);
	g_assert_cmpuint(tally->frames, ==, until - from);
	g_assert_cmpuint(tally->phantoms, ==, 0);
}

/* The library's clutter-chair: nobody in view for its first second and
 * more, a desk with its monitor, a chair and a cabinet. The segmenter
 * offers the desk and monitor as a person cut by the image's side, and
 * its torso band, on the second frame, passes for a torso. But the
 * torso's stadium lies on none of it, frame after frame: by frame 40
 * (1.3 s) it is given up, and on the frames after no user matches no
 * one. Before a verified track was judged again, the desk was a user on
 * all 389 frames. */
#define GIVEN_UP_FROM  40
#define GIVEN_UP_UNTIL 48
static void
test_verify_given_up(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	ScoreTally tally = { 0 };

	stage_assert_no_phantom(s, "clutter-chair", 1, GIVEN_UP_FROM, GIVEN_UP_UNTIL, &tally);
}

/* The library's clutter-empty: the furnished office with no one in it,
 * for its first 3 s. No user on any frame. Some of its furniture fits
 * the torso's stadium about as badly as verifying allows, changing frame
 * to frame: judged on one frame's fit, a small change to the fit (the
 * facing prior) made it a user from its fifth frame on 58 frames. */
#define EMPTY_CLUTTER_FRAMES 90

static void
test_verify_empty_clutter(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	ScoreTally tally = { 0 };

	stage_assert_no_phantom(s, "clutter-empty", 1, 0, EMPTY_CLUTTER_FRAMES, &tally);
}

/* The same office on noise seed 3: there, the plant's leaves fit the
 * torso's stadium on the first frame (misfit 406, under the 420 that
 * verifying allows) and no better than 615 on the frames after. Verified
 * on that first frame, the plant was a user on 233 of the scene's 240
 * frames; judged again once the misfit's mean has 0.3 s behind it, it is
 * none from frame 11 on. */
#define FIRST_SHAPE_FROM 11

static void
test_verify_first_shape(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	ScoreTally tally = { 0 };

	stage_assert_no_phantom(s, "clutter-empty", 3, FIRST_SHAPE_FROM, EMPTY_CLUTTER_FRAMES,
	                        &tally);
}

/* The library's seated-chairs on noise seed 3: a man walks in from the
 * right at 2.2 s, 2.4 m off, in front of the coat stand (3.8 m off). Once
 * he has gone on, the coat stand is seen again where his body was, and
 * farther than it: someone who was behind him might be. Before, the
 * coat stand became lively so, was verified on its shape and was a user
 * from frame 88 to the scene's end (55 of the 62 frames here). It reads
 * there what it read before he came, and it is no one's. */
#define PASSED_FROM  88
#define PASSED_UNTIL 150

static void
test_lively_passed(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	ScoreTally tally = { 0 };

	stage_assert_no_phantom(s, "seated-chairs", 3, PASSED_FROM, PASSED_UNTIL, &tally);
	g_assert_cmpuint(tally.missed, ==, 0);
}

/* The library's seated-sofa on noise seed 2: from 12 s the one who got
 * up walks back in front of the one who stays seated, and sits down
 * again. While they passed, the seated one's track was on the walker
 * for a few frames and took their height. When the seated one's head
 * was not found for itself, their body was fitted standing at that
 * height, the torso band over their shoulders, on the sofa's back: on
 * the 120 frames here, people were missed 53 times. A body last fitted
 * seated stays seated. */
#define SEATED_FROM  400
#define SEATED_UNTIL 520

static void
test_seated_stays(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	ScoreTally tally = { 0 };

	stage_play_seeded(s, "seated-sofa", 2, SEATED_FROM, SEATED_UNTIL, &tally);
	g_assert_cmpuint(tally.missed, ==, 0);
}

/* The library's five-row from 6.7 s to 8.2 s: the tallest, in the
 * middle, raises a hand over the head of the second from the left (2.4 m
 * off) and up past the image's top; the left arm of the man in front of
 * the second (1.8 m off) lies across their chest. Their head is still
 * found for itself: the raised forearm beside its top is not a head cut
 * off by the image's top, and the rows and shoulders under the head that
 * the arm in front hides are not judged. Before, the second was lost
 * from 7.6 s on: their track lived on where their head had been for a
 * while, and then on nothing. */
#define RAISED_ARM_FROM  200
#define RAISED_ARM_UNTIL 247

static void
test_top_raised_arm(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	ScoreTally tally = { 0 };

	stage_play_named(s, "five-row", RAISED_ARM_FROM, RAISED_ARM_UNTIL, &tally);
	g_assert_cmpuint(tally.frames, ==, RAISED_ARM_UNTIL - RAISED_ARM_FROM);
	g_assert_cmpuint(tally.people, ==, 5 * tally.frames);
	g_assert_cmpuint(tally.missed, ==, 0);
}

/* The coat stand above, there from the first frame; one person comes
 * into view after 0.3 s, another after 0.6 s. The coat stand's track
 * never took an id: the people are users 1 and 2. */
static void
test_verify_ids(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	guint ids = 0;

	stage_room(s, 1000.0, 0.0, 3500.0);
	stage_item(s, (DemoItem){ .kind = DEMO_KIT_COAT_STAND, .x = -500, .z = 2500 });
	stage_person(s, 1750.0, 700.0, 2300.0, DEMO_ARM_DOWN, 0.0, 0.3);
	stage_person(s, 1650.0, -1300.0, 3000.0, DEMO_ARM_HIP, 0.0, 0.6);
	for (guint i = 0; i < 27; i++) {
		stage_track(s);
		for (guint u = 0; u < s->out.n_users; u++) {
			g_assert_cmpuint(s->out.users[u].id, >=, 1);
			g_assert_cmpuint(s->out.users[u].id, <=, 2);
			ids |= 1u << s->out.users[u].id;
		}
		if (i < 9)
			g_assert_cmpuint(s->out.n_users, ==, 0);
	}
	g_assert_cmpuint(s->out.n_users, ==, 2);
	g_assert_cmpuint(ids, ==, (1u << 1) | (1u << 2));
}

/* ---- which way people face ---- */

typedef struct {
	double from_x, from_z, to_x, to_z; /* walked in WALK_SECONDS, mm */
	double yaw_deg;                    /* the way they go */
} WalkCase;

#define WALK_SECONDS 4.0
#define WALK_SETTLE  30 /* frames before the walker is judged: a second */

/* An adult walks past the sensor, 3 m off and side-on, arms swinging;
 * or steps back from it, facing it. The torso looks the same facing
 * either way, and the tracker took everyone to face the sensor: side-on
 * walkers had left and right swapped on most frames. One stepping back
 * still faces the sensor. After the first second, the user is never
 * swapped. */
static void
test_facing_walker(Stage *s, gconstpointer data)
{
	const WalkCase *c = data;
	ScoreTally tally = { 0 };

	stage_room(s, 1000.0, 0.0, 6000.0);
	s->script.duration = WALK_SECONDS;
	stage_person(s, 1750.0, c->from_x, c->from_z, DEMO_ARM_SWING, 0.0, 0.0);
	for (int k = 0; k < 2; k++) {
		s->keys[0][k].yaw_deg = c->yaw_deg;
		s->keys[0][k].legs = DEMO_LEGS_WALK;
	}
	s->keys[0][1].x = c->to_x;
	s->keys[0][1].z = c->to_z;
	for (guint i = 0; i < (guint)(WALK_SECONDS * 30) - 1; i++) {
		const DemoTruth *truth = stage_track(s);

		if (i >= WALK_SETTLE)
			score_frame(truth, &s->out, &tally);
	}
	g_assert_cmpuint(tally.people, >, 60);
	g_assert_cmpuint(tally.missed, ==, 0);
	g_assert_cmpuint(tally.swaps, ==, 0);
}

/* The library's camera-roll-high: the sensor 2.1 m up, tilted 25
 * degrees down and rolled; a man walks in side-on, stops and turns to
 * face it. From half a second after his turn, no one facing the sensor
 * is swapped. Without a lean toward facing the sensor in the torso's
 * fit, his torso was still fitted side-on after the turn, the facing
 * went with it, and he was swapped on 14 of these frames. */
#define TURN_FROM  99 /* 3.3 s */
#define TURN_UNTIL 299

static void
test_facing_turn(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	ScoreTally tally = { 0 };

	stage_play_named(s, "camera-roll-high", TURN_FROM, TURN_UNTIL, &tally);
	g_test_message("%u of %u facing the sensor swapped", tally.facing_swaps, tally.facing);
	g_assert_cmpuint(tally.facing, >, 150);
	g_assert_cmpuint(tally.facing_swaps, ==, 0);
}

static const WalkCase walk_right = { -1500.0, 3000.0, 1500.0, 3000.0, -90.0 };
static const WalkCase walk_left = { 1500.0, 3000.0, -1500.0, 3000.0, 90.0 };
static const WalkCase step_back = { 0.0, 1800.0, 0.0, 4200.0, 0.0 };

/* ---- people the image's sides cut ---- */

typedef struct {
	double x; /* standing 2.5 m off, this far to the side */
	DemoArm arms;
	guint gaps;
} SideCase;

#define SIDE_FRAMES 10

/* The sensor 1 m up and level, a person 2.5 m off (head to feet in the
 * picture) by an image's side: a third or a half of them out of view, or
 * an arm held out past the edge. They are one user on every frame; the
 * joints the tracker gives with confidence are in the image, and the
 * joints out of view are left out, not drawn in. */
static void
test_side_cut(Stage *s, gconstpointer data)
{
	const SideCase *c = data;

	stage_room(s, 1000.0, 0.0, 4000.0);
	stage_person(s, 1750.0, c->x, 2500.0, c->arms, 0.0, 0.0);
	stage_check_one(s, SIDE_FRAMES, c->gaps);
}

/* ---- people behind another's arm ---- */

#define BEHIND_FRAMES 10

/* Whether some user's head is within 250 mm of @person's. */
static gboolean
stage_user_on(const Stage *s, const DemoTruthPerson *person)
{
	for (guint u = 0; u < s->out.n_users; u++) {
		const TrackerJoint *head = &s->out.users[u].joints[TRACKER_JOINT_HEAD];

		if (head->confidence > 0.0 &&
		    tracker_vec3_distance(head->position, person->joints[TRACKER_JOINT_HEAD]) <
		            250.0)
			return TRUE;
	}
	return FALSE;
}

/* A tall man 4.6 m off, arms down; someone 2 m off, to his side, holds
 * both arms straight out, one across the man's shoulders and chest. The
 * sensor 1.2 m up, tilted 5 degrees down. Seen from the first frame, the
 * man is found by his shape alone: his head on shoulders, over a body
 * that the arm in front hides a strip of. He is a user on every frame,
 * and so is the one in front. Once, the hidden strip was taken for body
 * missing under the head, and he was not a person at all. */
static void
test_behind_arm(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	guint far_found = 0, near_found = 0;

	stage_room(s, 1200.0, 5.0, 5500.0);
	stage_person(s, 1980.0, 150.0, 4600.0, DEMO_ARM_DOWN, 0.0, 0.0);
	stage_person(s, 1700.0, 700.0, 2000.0, DEMO_ARM_OUT, 0.0, 0.0);
	for (guint i = 0; i < BEHIND_FRAMES; i++) {
		const DemoTruth *truth = stage_track(s);

		g_assert_cmpuint(truth->n_people, ==, 2);
		far_found += stage_user_on(s, &truth->people[0]);
		near_found += stage_user_on(s, &truth->people[1]);
	}
	g_test_message("the man behind on %u, the one in front on %u of %u frames", far_found,
	               near_found, BEHIND_FRAMES);
	g_assert_cmpuint(near_found, ==, BEHIND_FRAMES);
	g_assert_cmpuint(far_found, >=, BEHIND_FRAMES - VERIFY_FRAMES);
}

/* Someone walking past below a sensor 2.2 m up and tilted 28 degrees
 * down, side-on, 1.6 m off: striding, the column under them is open
 * between their feet. Once they have walked into view they are a user
 * within a few frames, and stay one while in view. Their legs were once
 * taken for a pole's stem, and they went unreported for most of a
 * second at a time. */
#define WALKER_FRAMES 120
static void
test_verify_walker(Stage *s, gconstpointer data G_GNUC_UNUSED)
{
	guint in_view = 0, found = 0;

	stage_room(s, 2200.0, 28.0, 5000.0);
	stage_person(s, 1820.0, 2400.0, 1600.0, DEMO_ARM_SWING, 0.0, 0.0);
	for (guint k = 0; k < 2; k++) {
		s->keys[0][k].yaw_deg = 90.0;
		s->keys[0][k].legs = DEMO_LEGS_WALK;
	}
	s->keys[0][1].t = 4.0;
	s->keys[0][1].x = -2400.0;
	s->script.duration = 4.0;
	for (guint i = 0; i < WALKER_FRAMES; i++) {
		const DemoTruth *truth = stage_track(s);
		gboolean whole = truth->n_people == 1 && truth->people[0].pixels >= 8000 &&
		                 truth->people[0].in_view[TRACKER_JOINT_HEAD];

		in_view += whole;
		found += whole && stage_user_on(s, &truth->people[0]);
	}
	g_test_message("a user on %u of the %u frames in view", found, in_view);
	g_assert_cmpuint(in_view, >, 30);
	g_assert_cmpuint(found + VERIFY_FRAMES, >=, in_view);
}

/* ---- the cases ---- */

static const struct {
	const char *path;
	NearCase c;
} top_cut[] = {
	{ "/tracker/people/top-cut/head-above/arms-crossed",
	  { 1800.0, 750.0, DEMO_ARM_CROSS, GAP_NONE } },
	/* The top edge crosses the shoulders; below them the trunk, the arms
	 * hanging apart from it, is no wider. The forearms go on past the
	 * bottom edge, and the hands are drawn inside it. */
	{ "/tracker/people/top-cut/head-above/arms-down",
	  { 1800.0, 750.0, DEMO_ARM_DOWN, GAP_IN_VIEW } },
	/* The neck at the edge is taken for the lower half of a head: the
	 * head is given at the edge, with confidence. */
	{ "/tracker/people/top-cut/neck-at-edge", { 1800.0, 850.0, DEMO_ARM_DOWN, GAP_IN_VIEW } },
};

static const struct {
	const char *path;
	NearCase c;
} top_cut_head[] = {
	{ "/tracker/people/top-cut/head-partly-cut/0.85m",
	  { 1650.0, 850.0, DEMO_ARM_DOWN, GAP_NONE } },
	{ "/tracker/people/top-cut/head-partly-cut/0.95m",
	  { 1650.0, 950.0, DEMO_ARM_DOWN, GAP_NONE } },
};

static const struct {
	const char *path;
	ThingCase c;
} top_cut_things[] = {
	{ "/tracker/people/top-cut/not-a-person/wall-end",
	  { { .kind = DEMO_KIT_WALL, .x = 1000, .z = 1600, .w = 1400, .h = 2600, .d = 120 },
	    GAP_NONE } },
	{ "/tracker/people/top-cut/not-a-person/doorway",
	  { { .kind = DEMO_KIT_DOORWAY, .z = 1500, .w = 1400, .h = 2600, .d = 120 }, GAP_NONE } },
	{ "/tracker/people/top-cut/not-a-person/open-door",
	  { { .kind = DEMO_KIT_WALL,
	      .x = -300,
	      .z = 1500,
	      .yaw_deg = 45,
	      .w = 900,
	      .h = 2600,
	      .d = 40 },
	    GAP_NONE } },
	/* Turned further, the door loses readings in patches (a grazing
	 * angle): its ragged top passes for a neck the image's top cuts,
	 * and the panel fills the column where legs would be. */
	{ "/tracker/people/top-cut/not-a-person/open-door-grazing",
	  { { .kind = DEMO_KIT_WALL,
	      .x = -300,
	      .z = 1500,
	      .yaw_deg = 65,
	      .w = 900,
	      .h = 2600,
	      .d = 40 },
	    GAP_NOBODY } },
};

static const struct {
	const char *path;
	SideCase c;
} side_cut[] = {
	{ "/tracker/people/side-cut/left-edge/arm-out", { -1100.0, DEMO_ARM_OUT, GAP_NONE } },
	{ "/tracker/people/side-cut/right-edge/arm-out", { 1100.0, DEMO_ARM_OUT, GAP_NONE } },
	{ "/tracker/people/side-cut/left-edge/third-out", { -1300.0, DEMO_ARM_DOWN, GAP_NONE } },
	{ "/tracker/people/side-cut/right-edge/third-out", { 1300.0, DEMO_ARM_DOWN, GAP_NONE } },
	{ "/tracker/people/side-cut/left-edge/half-out", { -1400.0, DEMO_ARM_DOWN, GAP_NONE } },
	/* On some frames the hand past the edge is fitted just inside it. */
	{ "/tracker/people/side-cut/right-edge/half-out", { 1400.0, DEMO_ARM_DOWN, GAP_IN_VIEW } },
};

/* ---- people leaning ---- */

typedef struct {
	double lean_deg; /* the upper body back (positive) or forward */
	guint gaps;
} LeanCase;

#define LEAN_FRAMES 30

/* A man 1.8 m tall 2.2 m off, the sensor 1 m up and level, his upper
 * body leaning back or forward from the hips, arms down. He is one user
 * on every frame. Not yet leaning 15 degrees back, when the torso under
 * his head lies nearer than the segmenter lets a torso be, nor 20
 * forward, when the upright stadium fits his torso too badly for its
 * shape to pass for a person's: he is no user at all. */
static void
test_lean(Stage *s, gconstpointer data)
{
	const LeanCase *c = data;

	stage_room(s, 1000.0, 0.0, 4500.0);
	s->script.duration = LEAN_FRAMES / 30.0;
	stage_person(s, 1800.0, 0.0, 2200.0, DEMO_ARM_DOWN, 0.0, 0.0);
	for (int k = 0; k < 2; k++)
		s->keys[0][k].lean_deg = c->lean_deg;
	stage_check_one(s, LEAN_FRAMES - 1, c->gaps);
}

static const struct {
	const char *path;
	LeanCase c;
} lean[] = {
	{ "/tracker/people/lean/back-10", { 10.0, GAP_NONE } },
	{ "/tracker/people/lean/forward-10", { -10.0, GAP_NONE } },
	{ "/tracker/people/lean/back-15", { 15.0, GAP_FOUND } },
	{ "/tracker/people/lean/forward-20", { -20.0, GAP_FOUND } },
};

#define ADD(path, data, test) g_test_add(path, Stage, data, stage_setup, test, stage_teardown)

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(top_cut); i++)
		ADD(top_cut[i].path, &top_cut[i].c, test_top_cut);
	ADD("/tracker/people/top-cut/closeup-torso-scene", NULL, test_top_cut_library);
	ADD("/tracker/people/top-cut/closeup-torso-trunk", NULL, test_top_cut_trunk);
	for (guint i = 0; i < G_N_ELEMENTS(top_cut_head); i++)
		ADD(top_cut_head[i].path, &top_cut_head[i].c, test_top_cut_head);
	ADD("/tracker/people/top-cut/crown-touches/five-row-scene", NULL, test_top_crown);
	ADD("/tracker/people/split/under-arm/five-row-scene", NULL, test_split_under_arm);
	ADD("/tracker/people/top-cut/raised-arm/five-row-scene", NULL, test_top_raised_arm);
	for (guint i = 0; i < G_N_ELEMENTS(top_cut_things); i++)
		ADD(top_cut_things[i].path, &top_cut_things[i].c, test_top_cut_thing);
	ADD("/tracker/people/verify/standing", NULL, test_verify_standing);
	ADD("/tracker/people/verify/seated", NULL, test_verify_seated);
	ADD("/tracker/people/verify/legs-hidden", NULL, test_verify_legs_hidden);
	ADD("/tracker/people/verify/coat-stand-never", NULL, test_verify_coat_stand);
	ADD("/tracker/people/verify/plant-never", NULL, test_verify_plant);
	ADD("/tracker/people/verify/plant-behind-chair", NULL, test_verify_plant_chair);
	ADD("/tracker/people/verify/first-shape-judged-again", NULL, test_verify_first_shape);
	ADD("/tracker/people/verify/given-up", NULL, test_verify_given_up);
	ADD("/tracker/people/verify/empty-clutter", NULL, test_verify_empty_clutter);
	ADD("/tracker/people/lively/passed-in-front", NULL, test_lively_passed);
	ADD("/tracker/people/seated/stays-seated", NULL, test_seated_stays);
	ADD("/tracker/people/facing/walking-right", &walk_right, test_facing_walker);
	ADD("/tracker/people/facing/walking-left", &walk_left, test_facing_walker);
	ADD("/tracker/people/facing/stepping-back", &step_back, test_facing_walker);
	ADD("/tracker/people/facing/walk-and-turn", NULL, test_facing_turn);
	ADD("/tracker/people/verify/ids-only-when-verified", NULL, test_verify_ids);
	ADD("/tracker/people/verify/walker-below-high-sensor", NULL, test_verify_walker);
	for (guint i = 0; i < G_N_ELEMENTS(side_cut); i++)
		ADD(side_cut[i].path, &side_cut[i].c, test_side_cut);
	ADD("/tracker/people/behind/arm-across-chest", NULL, test_behind_arm);
	for (guint i = 0; i < G_N_ELEMENTS(lean); i++)
		ADD(lean[i].path, &lean[i].c, test_lean);
	return g_test_run();
}
