#include "room-calibrator.h"

#include <math.h>
#include <string.h>

#include "base/stats.h"

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-room-calibrator-error-quark, room_calibrator_error)
/* clang-format on */

#define DEG (G_PI / 180.0)

/* A torso seen with less confidence than this is not used. */
#define MIN_CONFIDENCE 0.5
/* RANSAC: hypotheses tried, from pairs of sightings at least this far
 * apart whose distance both sensors agree on this closely. */
#define RANSAC_ROUNDS   2000
#define RANSAC_BASE_MM  600.0
#define RANSAC_AGREE_MM 120.0
/* A sighting agrees with a placement within these, loosest first: the
 * fit is refined on what agrees with each in turn. */
static const double agree_mm[] = { 250.0, 150.0, 100.0 };
/* Sightings used for one pair of sensors at most: more are taken evenly. */
#define MAX_SAMPLES 20000

typedef struct {
	guint id;
	float torso[3]; /* camera space, mm */
} Seen;

typedef struct {
	gint64 time_us;
	guint8 n;
	Seen seen[TRACKER_MAX_USERS];
} Frame;

typedef struct {
	GArray *frames;         /* Frame */
	GArray *poses;          /* TrackerCameraPose, the frames' */
	TrackerCameraPose pose; /* the median, once solving */
} Sensor;

struct _RoomCalibrator {
	guint n_sensors;
	Sensor sensors[ROOM_CALIBRATOR_MAX_SENSORS];
};

/* One person seen by two sensors at one time, on each one's floor (x, z)
 * with the height (y). */
typedef struct {
	TrackerVec3 a, b;
} Sample;

RoomCalibrator *
room_calibrator_new(guint n_sensors)
{
	RoomCalibrator *c;

	g_return_val_if_fail(n_sensors >= 2 && n_sensors <= ROOM_CALIBRATOR_MAX_SENSORS, NULL);

	c = g_new0(RoomCalibrator, 1);
	c->n_sensors = n_sensors;
	for (guint i = 0; i < n_sensors; i++) {
		c->sensors[i].frames = g_array_new(FALSE, FALSE, sizeof(Frame));
		c->sensors[i].poses = g_array_new(FALSE, FALSE, sizeof(TrackerCameraPose));
	}
	return c;
}

void
room_calibrator_free(RoomCalibrator *c)
{
	if (c == NULL)
		return;
	for (guint i = 0; i < c->n_sensors; i++) {
		g_array_unref(c->sensors[i].frames);
		g_array_unref(c->sensors[i].poses);
	}
	g_free(c);
}

/* Where @user's trunk is: the mean of its joints found well, when the
 * torso is among them. A mean over the trunk's corners sways less with
 * how the body is turned to the sensor than the torso joint alone. */
static gboolean
room_calibrator_centre(const TrackerUser *user, TrackerVec3 *centre)
{
	static const TrackerJointId trunk[] = {
		TRACKER_JOINT_TORSO,          TRACKER_JOINT_NECK,     TRACKER_JOINT_LEFT_SHOULDER,
		TRACKER_JOINT_RIGHT_SHOULDER, TRACKER_JOINT_LEFT_HIP, TRACKER_JOINT_RIGHT_HIP,
	};
	TrackerVec3 sum = tracker_vec3(0, 0, 0);
	guint n = 0;

	if (user->joints[TRACKER_JOINT_TORSO].confidence < MIN_CONFIDENCE)
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(trunk); i++) {
		const TrackerJoint *j = &user->joints[trunk[i]];

		if (j->confidence >= MIN_CONFIDENCE) {
			sum = tracker_vec3_add(sum, j->position);
			n++;
		}
	}
	*centre = tracker_vec3_scale(sum, 1.0 / n);
	return TRUE;
}

gboolean
room_calibrator_add(RoomCalibrator *c, guint sensor, gint64 time_us, const TrackerFrame *frame,
                    const TrackerCameraPose *pose)
{
	Sensor *s;
	Frame f = { .time_us = time_us };

	g_return_val_if_fail(c != NULL && sensor < c->n_sensors, FALSE);
	g_return_val_if_fail(frame != NULL && pose != NULL, FALSE);

	s = &c->sensors[sensor];
	if (s->frames->len >= ROOM_CALIBRATOR_MAX_FRAMES ||
	    (s->frames->len > 0 &&
	     time_us <= g_array_index(s->frames, Frame, s->frames->len - 1).time_us))
		return FALSE;
	for (guint u = 0; u < frame->n_users && f.n < TRACKER_MAX_USERS; u++) {
		TrackerVec3 centre;

		if (!room_calibrator_centre(&frame->users[u], &centre))
			continue;
		f.seen[f.n].id = frame->users[u].id;
		f.seen[f.n].torso[0] = (float)centre.x;
		f.seen[f.n].torso[1] = (float)centre.y;
		f.seen[f.n].torso[2] = (float)centre.z;
		f.n++;
	}
	g_array_append_val(s->frames, f);
	g_array_append_val(s->poses, *pose);
	return TRUE;
}

guint
room_calibrator_frames(const RoomCalibrator *c, guint sensor)
{
	g_return_val_if_fail(c != NULL && sensor < c->n_sensors, 0);

	return c->sensors[sensor].frames->len;
}

/* ---- each sensor's own floor ---- */

/* The sensor's pose: the median over the frames that saw the floor, or
 * failing those the frames that assumed it from the settings. */
static gboolean
room_calibrator_floor(Sensor *s, guint index, GError **error)
{
	GArray *poses = s->poses;
	g_autofree double *h = g_new(double, MAX(poses->len, 1));
	g_autofree double *t = g_new(double, MAX(poses->len, 1));
	g_autofree double *r = g_new(double, MAX(poses->len, 1));

	for (int want = TRACKER_FLOOR_SEEN; want >= TRACKER_FLOOR_ASSUMED; want--) {
		guint n = 0;

		for (guint i = 0; i < poses->len; i++) {
			const TrackerCameraPose *p = &g_array_index(poses, TrackerCameraPose, i);

			if ((int)p->floor != want)
				continue;
			h[n] = p->height_mm;
			t[n] = p->tilt_deg;
			r[n] = p->roll_deg;
			n++;
		}
		if (n == 0)
			continue;
		s->pose.floor = (TrackerFloorState)want;
		s->pose.height_mm = stats_median(h, n);
		s->pose.tilt_deg = stats_median(t, n);
		s->pose.roll_deg = stats_median(r, n);
		return TRUE;
	}
	g_set_error(error, ROOM_CALIBRATOR_ERROR, ROOM_CALIBRATOR_ERROR_NO_FLOOR,
	            "sensor %u saw no floor in %u frames: aim it so that some floor is in view, "
	            "or give its height (--camera-height)",
	            index + 1, poses->len);
	return FALSE;
}

/* ---- matching sightings in time ---- */

static TrackerVec3
room_calibrator_seen_floor(const Sensor *s, const Seen *seen)
{
	TrackerVec3 room;

	tracker_camera_pose_to_room(
	        &s->pose, tracker_vec3(seen->torso[0], seen->torso[1], seen->torso[2]), &room);
	return room;
}

static const Seen *
room_calibrator_find(const Frame *f, guint id)
{
	for (guint i = 0; i < f->n; i++) {
		if (f->seen[i].id == id)
			return &f->seen[i];
	}
	return NULL;
}

/* The first frame of @frames at or after @time_us. */
static guint
room_calibrator_after(GArray *frames, gint64 time_us)
{
	guint lo = 0, hi = frames->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(frames, Frame, mid).time_us < time_us)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Every user of @a about @time_us, between its frames either side (or
 * the one frame at that time), each paired with @b_point. */
static void
room_calibrator_pair(const Sensor *a, gint64 time_us, TrackerVec3 b_point, GArray *samples)
{
	guint k = room_calibrator_after(a->frames, time_us);
	const Frame *f1, *f0;
	double w;

	if (k >= a->frames->len)
		return;
	f1 = &g_array_index(a->frames, Frame, k);
	f0 = f1->time_us == time_us || k == 0 ? f1 : f1 - 1;
	if (f1->time_us - f0->time_us > ROOM_CALIBRATOR_MAX_GAP_US)
		return;
	w = f1 == f0 ? 0.0 : (double)(f1->time_us - time_us) / (double)(f1->time_us - f0->time_us);
	for (guint i = 0; i < f1->n; i++) {
		const Seen *s0 = room_calibrator_find(f0, f1->seen[i].id);
		Sample sample = { .b = b_point };

		if (s0 == NULL)
			continue;
		sample.a = tracker_vec3_lerp(room_calibrator_seen_floor(a, &f1->seen[i]),
		                             room_calibrator_seen_floor(a, s0), w);
		g_array_append_val(samples, sample);
	}
}

/* Every pairing of a user of @a with a user of @b seen at one time. */
static GArray *
room_calibrator_samples(const Sensor *a, const Sensor *b)
{
	GArray *samples = g_array_new(FALSE, FALSE, sizeof(Sample));

	for (guint i = 0; i < b->frames->len; i++) {
		const Frame *f = &g_array_index(b->frames, Frame, i);

		for (guint u = 0; u < f->n; u++)
			room_calibrator_pair(a, f->time_us,
			                     room_calibrator_seen_floor(b, &f->seen[u]), samples);
	}
	/* Evenly thinned: a long run costs no more than a long enough one. */
	if (samples->len > MAX_SAMPLES) {
		guint n = samples->len;

		for (guint i = 0; i < MAX_SAMPLES; i++)
			g_array_index(samples, Sample, i) = g_array_index(
			        samples, Sample, (guint)((guint64)i * n / MAX_SAMPLES));
		g_array_set_size(samples, MAX_SAMPLES);
	}
	return samples;
}

/* ---- placing one sensor against another ---- */

/* b's floor frame into a's: turned by yaw, moved by (x, z). */
typedef struct {
	double yaw, x, z;
} Place;

static void
room_calibrator_apply(const Place *p, double bx, double bz, double *ax, double *az)
{
	double c = cos(p->yaw), s = sin(p->yaw);

	*ax = p->x + bx * c + bz * s;
	*az = p->z - bx * s + bz * c;
}

static double
room_calibrator_miss(const Place *p, const Sample *s)
{
	double ax, az;

	room_calibrator_apply(p, s->b.x, s->b.z, &ax, &az);
	return hypot(ax - s->a.x, az - s->a.z);
}

/* The turn and move that best take the samples marked in @use from b's
 * floor to a's (least squares on the floor); FALSE when fewer than two. */
static gboolean
room_calibrator_fit(const Sample *samples, guint n_samples, const guint8 *use, Place *p)
{
	double ax = 0, az = 0, bx = 0, bz = 0, re = 0, im = 0;
	guint n = 0;

	for (guint i = 0; i < n_samples; i++) {
		const Sample *s = &samples[i];

		if (!use[i])
			continue;
		ax += s->a.x, az += s->a.z, bx += s->b.x, bz += s->b.z;
		n++;
	}
	if (n < 2)
		return FALSE;
	ax /= n, az /= n, bx /= n, bz /= n;
	/* With points as x + iz, a = b e^(-i yaw) + t: e^(-i yaw) goes as
	 * the sum of conj(b) a about the means. */
	for (guint i = 0; i < n_samples; i++) {
		const Sample *s = &samples[i];
		double dax = s->a.x - ax, daz = s->a.z - az, dbx = s->b.x - bx, dbz = s->b.z - bz;

		if (!use[i])
			continue;
		re += dbx * dax + dbz * daz;
		im += dbx * daz - dbz * dax;
	}
	p->yaw = -atan2(im, re);
	p->x = 0.0, p->z = 0.0;
	room_calibrator_apply(p, bx, bz, &bx, &bz);
	p->x = ax - bx;
	p->z = az - bz;
	return TRUE;
}

/* Marks the samples within @within_mm of where @p puts them. */
static guint
room_calibrator_agreeing(const GArray *samples, const Place *p, double within_mm, guint8 *use)
{
	guint n = 0;

	for (guint i = 0; i < samples->len; i++) {
		use[i] = room_calibrator_miss(p, &g_array_index(samples, Sample, i)) < within_mm;
		n += use[i];
	}
	return n;
}

/* A placement from samples @i and @j alone, when they are far enough
 * apart and both sensors agree on how far. */
static gboolean
room_calibrator_guess(const GArray *samples, guint i, guint j, Place *p)
{
	const Sample *si = &g_array_index(samples, Sample, i);
	const Sample *sj = &g_array_index(samples, Sample, j);
	double da = hypot(sj->a.x - si->a.x, sj->a.z - si->a.z);
	double db = hypot(sj->b.x - si->b.x, sj->b.z - si->b.z);
	const guint8 use[2] = { 1, 1 };
	const Sample pair[2] = { *si, *sj };

	if (da < RANSAC_BASE_MM || fabs(da - db) > RANSAC_AGREE_MM)
		return FALSE;
	return room_calibrator_fit(pair, 2, use, p);
}

/* The placement most samples agree with, refined on them. Returns how
 * many agree within the tightest bound, marked in @use. */
static guint
room_calibrator_ransac(const GArray *samples, Place *best, guint8 *use)
{
	g_autoptr(GRand) rand = g_rand_new_with_seed(1);
	guint best_n = 0, n = 0;

	if (samples->len < 2)
		return 0;
	for (guint round = 0; round < RANSAC_ROUNDS; round++) {
		guint i = g_rand_int_range(rand, 0, (gint32)samples->len);
		guint j = g_rand_int_range(rand, 0, (gint32)samples->len);
		Place p = { 0 };
		guint agree;

		if (!room_calibrator_guess(samples, i, j, &p))
			continue;
		agree = room_calibrator_agreeing(samples, &p, agree_mm[0], use);
		if (agree > best_n) {
			best_n = agree;
			*best = p;
		}
	}
	if (best_n == 0)
		return 0;
	for (guint k = 0; k < G_N_ELEMENTS(agree_mm); k++) {
		Place p = *best;

		room_calibrator_agreeing(samples, best, agree_mm[k], use);
		if (room_calibrator_fit((const Sample *)samples->data, samples->len, use, &p))
			*best = p;
		n = room_calibrator_agreeing(samples, best, agree_mm[k], use);
	}
	return n;
}

/* The longer side of the box the agreeing samples cover on a's floor,
 * along their main direction. */
static double
room_calibrator_spread(const GArray *samples, const guint8 *use)
{
	double mx = 0, mz = 0, sxx = 0, szz = 0, sxz = 0, lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, dir;
	guint n = 0;

	for (guint i = 0; i < samples->len; i++) {
		const Sample *s = &g_array_index(samples, Sample, i);

		if (use[i])
			mx += s->a.x, mz += s->a.z, n++;
	}
	if (n == 0)
		return 0.0;
	mx /= n, mz /= n;
	for (guint i = 0; i < samples->len; i++) {
		const Sample *s = &g_array_index(samples, Sample, i);

		if (!use[i])
			continue;
		sxx += (s->a.x - mx) * (s->a.x - mx);
		szz += (s->a.z - mz) * (s->a.z - mz);
		sxz += (s->a.x - mx) * (s->a.z - mz);
	}
	dir = 0.5 * atan2(2.0 * sxz, sxx - szz);
	for (guint i = 0; i < samples->len; i++) {
		const Sample *s = &g_array_index(samples, Sample, i);
		double along = (s->a.x - mx) * cos(dir) + (s->a.z - mz) * sin(dir);

		if (!use[i])
			continue;
		lo = MIN(lo, along);
		hi = MAX(hi, along);
	}
	return hi - lo;
}

/* How far the samples in @use still lie apart (root mean square) and how
 * much higher a saw them than b (median). */
static void
room_calibrator_residual(const GArray *samples, const guint8 *use, const Place *p,
                         RoomCalibration *out)
{
	g_autofree double *dy = g_new(double, MAX(samples->len, 1));
	double sum = 0.0;
	guint n = 0;

	for (guint i = 0; i < samples->len; i++) {
		const Sample *s = &g_array_index(samples, Sample, i);
		double miss = room_calibrator_miss(p, s);

		if (!use[i])
			continue;
		sum += miss * miss;
		dy[n++] = s->a.y - s->b.y;
	}
	out->samples = n;
	out->residual_mm = n > 0 ? sqrt(sum / n) : 0.0;
	out->height_offset_mm = n > 0 ? stats_median(dy, n) : 0.0;
}

/* Places sensor @b against sensor @a: b's floor frame in a's. */
static gboolean
room_calibrator_pair_place(RoomCalibrator *c, guint a, guint b, Place *p, RoomCalibration *out,
                           GError **error)
{
	g_autoptr(GArray) samples = room_calibrator_samples(&c->sensors[a], &c->sensors[b]);
	g_autofree guint8 *use = g_new0(guint8, MAX(samples->len, 1));
	guint n = room_calibrator_ransac(samples, p, use);
	double spread;

	/* Enough sightings on too small a spot give RANSAC nothing to turn
	 * about: say so, rather than that there were none. */
	if (n < ROOM_CALIBRATOR_MIN_SAMPLES && samples->len >= ROOM_CALIBRATOR_MIN_SAMPLES) {
		memset(use, 1, samples->len);
		if (room_calibrator_spread(samples, use) < RANSAC_BASE_MM)
			n = samples->len;
	}
	if (n < ROOM_CALIBRATOR_MIN_SAMPLES) {
		g_set_error(error, ROOM_CALIBRATOR_ERROR, ROOM_CALIBRATOR_ERROR_UNMATCHED,
		            "sensors %u and %u saw one person at the same time and place in %u "
		            "frames, fewer than %u: walk through where both see, for at least "
		            "10 seconds",
		            a + 1, b + 1, n, ROOM_CALIBRATOR_MIN_SAMPLES);
		return FALSE;
	}
	spread = room_calibrator_spread(samples, use);
	if (spread < ROOM_CALIBRATOR_MIN_SPREAD_MM) {
		g_set_error(error, ROOM_CALIBRATOR_ERROR, ROOM_CALIBRATOR_ERROR_NARROW,
		            "sensors %u and %u saw one person together over only %.0f mm of floor, "
		            "less than %.0f: walk across the whole of where both see",
		            a + 1, b + 1, spread, ROOM_CALIBRATOR_MIN_SPREAD_MM);
		return FALSE;
	}
	room_calibrator_residual(samples, use, p, out);
	out->reference = a;
	return TRUE;
}

/* ---- all sensors ---- */

static void
room_calibrator_take_floor(const Sensor *s, RoomCalibration *out)
{
	out->floor = s->pose.floor;
	out->height_mm = s->pose.height_mm;
	out->tilt_deg = s->pose.tilt_deg;
	out->roll_deg = s->pose.roll_deg;
}

/* Sensor @b, placed by @p against @a (placed at @ref), in the room. */
static void
room_calibrator_compose(const RoomCalibration *ref, const Place *p, RoomCalibration *out)
{
	Place room = { ref->yaw_deg * DEG, ref->x_mm, ref->z_mm };
	double x, z, yaw = (ref->yaw_deg * DEG) + p->yaw;

	room_calibrator_apply(&room, p->x, p->z, &x, &z);
	out->x_mm = x;
	out->z_mm = z;
	out->yaw_deg = remainder(yaw, 2.0 * G_PI) / DEG;
}

/* Places sensor @b against the first placed sensor it shares sightings
 * with, sensor 0 first. */
static gboolean
room_calibrator_place(RoomCalibrator *c, guint b, const gboolean *placed, RoomCalibration *out,
                      GError **error)
{
	g_autoptr(GError) first = NULL;

	for (guint a = 0; a < c->n_sensors; a++) {
		g_autoptr(GError) local = NULL;
		Place p = { 0 };

		if (a == b || !placed[a])
			continue;
		if (room_calibrator_pair_place(c, a, b, &p, &out[b], &local)) {
			room_calibrator_compose(&out[a], &p, &out[b]);
			return TRUE;
		}
		if (first == NULL)
			first = g_steal_pointer(&local);
	}
	if (first != NULL)
		g_propagate_error(error, g_steal_pointer(&first));
	return FALSE;
}

gboolean
room_calibrator_solve(RoomCalibrator *c, RoomCalibration *out, GError **error)
{
	gboolean placed[ROOM_CALIBRATOR_MAX_SENSORS] = { TRUE };
	guint n_placed = 1;
	g_autoptr(GError) last = NULL;

	g_return_val_if_fail(c != NULL && out != NULL, FALSE);

	memset(out, 0, c->n_sensors * sizeof(*out));
	for (guint i = 0; i < c->n_sensors; i++) {
		if (!room_calibrator_floor(&c->sensors[i], i, error))
			return FALSE;
		room_calibrator_take_floor(&c->sensors[i], &out[i]);
	}
	/* Each round places whatever shares sightings with one placed. */
	while (n_placed < c->n_sensors) {
		guint before = n_placed;

		for (guint b = 1; b < c->n_sensors; b++) {
			if (placed[b])
				continue;
			g_clear_error(&last);
			if (room_calibrator_place(c, b, placed, out, &last)) {
				placed[b] = TRUE;
				n_placed++;
			}
		}
		if (n_placed == before) {
			g_propagate_error(error, g_steal_pointer(&last));
			return FALSE;
		}
	}
	return TRUE;
}
