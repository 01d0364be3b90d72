// LogGPS Tables 3, 4 and 6 against values worked by hand from the Table 5 parameters
// (Myrinet: L 850, o' 6730, Oss 5.02, Ors 4.72, Gs 15.17, Osl 4.80, Orl 3.86, Gl 0.04,
// s 8191, S 16383; Fast Ethernet: L 24580, o' 22340, Oss 12.37, Ors 11.53, Gs 188.77,
// Osl 9.73, Orl 9.89, Gl 65.09, s 1023, S 16383). All times in ns.
#include <gtest/gtest.h>

#include "netwarp/validation/loggps.hpp"

namespace netwarp::validation {
namespace {

constexpr double kTol = 1e-6;

const LogGpsParams kMyrinet = loggps_preset("myrinet");
const LogGpsParams kFastEthernet = loggps_preset("fast-ethernet");

TEST(LogGpsPresets, HoldTable5AndNameTheKnownOnes) {
  EXPECT_DOUBLE_EQ(kMyrinet.L, 850);
  EXPECT_DOUBLE_EQ(kMyrinet.Gs, 15.17);
  EXPECT_EQ(kMyrinet.s, 8191u);
  EXPECT_DOUBLE_EQ(kFastEthernet.Gl, 65.09);
  EXPECT_EQ(kFastEthernet.s, 1023u);
  const LogGpsParams cenju = loggps_preset("cenju4");
  EXPECT_DOUBLE_EQ(cenju.Orl + cenju.Gl, 0.28);  // only the sum is published
  EXPECT_EQ(cenju.s, cenju.S);
  try {
    loggps_preset("myrinett");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "unknown LogGPS preset 'myrinett' (known: cenju4, fast-ethernet, myrinet)");
  }
}

TEST(LogGpsTable3, MyrinetPiecesAndCommunicationTimes) {
  // k = 1000 (short): T1 = 6730 + 5020 = 11750, T2 = 15170 + 850 = 16020,
  // T3 = 6730 + 4720 = 11450; (1) = 39220.
  EXPECT_NEAR(loggps::t1(kMyrinet, 1000), 11750, kTol);
  EXPECT_NEAR(loggps::t2(kMyrinet, 1000), 16020, kTol);
  EXPECT_NEAR(loggps::t3(kMyrinet, 1000), 11450, kTol);
  EXPECT_NEAR(loggps::comm_time(kMyrinet, 1000, 0), 39220, kTol);
  // k = 10000 (eager): T1 = 56930, T2' = 8191*15.17 + 1809*0.04 + 850 = 124257.47 + 72.36
  // + 850 = 125179.83, T3 = 53930; (2) = 236039.83.
  EXPECT_NEAR(loggps::t2_long(kMyrinet, 10000), 125179.83, kTol);
  EXPECT_NEAR(loggps::comm_time(kMyrinet, 10000, 0), 236039.83, kTol);
  // k = 20000 (rendezvous): T1' = 6730 + 96000 = 102730, T2' = 124257.47 + 11809*0.04 + 850
  // = 125579.83, T3' = 6730 + 77200 = 83930, T4 = max{7580, d} + 6730, T5 = 14310.
  EXPECT_NEAR(loggps::t1_long(kMyrinet, 20000), 102730, kTol);
  EXPECT_NEAR(loggps::t2_long(kMyrinet, 20000), 125579.83, kTol);
  EXPECT_NEAR(loggps::t3_long(kMyrinet, 20000), 83930, kTol);
  EXPECT_NEAR(loggps::t4(kMyrinet, 0), 14310, kTol);
  EXPECT_NEAR(loggps::t4(kMyrinet, 50000), 56730, kTol);
  EXPECT_NEAR(loggps::t5(kMyrinet), 14310, kTol);
  // (3), d = 0: 14310 + 14310 + 102730 + 125579.83 + 83930 = 340859.83;
  // d = 50000: 56730 + 14310 + 102730 + 125579.83 + 83930 = 383279.83.
  EXPECT_NEAR(loggps::comm_time(kMyrinet, 20000, 0), 340859.83, kTol);
  EXPECT_NEAR(loggps::comm_time(kMyrinet, 20000, 50000), 383279.83, kTol);
}

TEST(LogGpsTable3, PaperWorkedCheckAtTheEagerLimit) {
  // §4.4: eq (2) at k = S = 16383: 2*6730 + 16383*9.74 + 8191*15.17 + 8192*0.04 + 850
  // = 13460 + 159570.42 + 124257.47 + 327.68 + 850 = 298465.57 (298.47 us).
  EXPECT_NEAR(loggps::comm_time(kMyrinet, 16383, 0), 298465.57, kTol);
}

TEST(LogGpsTable3, FastEthernetCommunicationTimes) {
  // k = 500: T1 = 22340 + 6185 = 28525, T2 = 94385 + 24580 = 118965, T3 = 22340 + 5765
  // = 28105; (1) = 175595.
  EXPECT_NEAR(loggps::comm_time(kFastEthernet, 500, 0), 175595, kTol);
  // k = 5000: T1 = 84190, T2' = 1023*188.77 + 3977*65.09 + 24580 = 193111.71 + 258862.93
  // + 24580 = 476554.64, T3 = 79990; (2) = 640734.64.
  EXPECT_NEAR(loggps::t2_long(kFastEthernet, 5000), 476554.64, kTol);
  EXPECT_NEAR(loggps::comm_time(kFastEthernet, 5000, 0), 640734.64, kTol);
  // k = 20000: T4 = T5 = 69260, T1' = 22340 + 194600 = 216940, T2' = 193111.71
  // + 18977*65.09 + 24580 = 1452904.64, T3' = 22340 + 197800 = 220140; (3) = 2028504.64.
  EXPECT_NEAR(loggps::comm_time(kFastEthernet, 20000, 0), 2028504.64, kTol);
}

TEST(LogGpsTable4, MyrinetRoutineTimes) {
  EXPECT_NEAR(loggps::send(kMyrinet, 1000, 0), 11750, kTol);        // (4): T1
  EXPECT_NEAR(loggps::send(kMyrinet, 20000, 0), 131350, kTol);      // (5): 14310+14310+102730
  EXPECT_NEAR(loggps::send(kMyrinet, 20000, 50000), 173770, kTol);  // 56730+14310+102730
  EXPECT_NEAR(loggps::isend(kMyrinet), 6730, kTol);                 // (6)
  EXPECT_NEAR(loggps::irecv(kMyrinet), 6730, kTol);                 // (10)
  // (7): max{11750 + 16020 - d, 0} + 11450.
  EXPECT_NEAR(loggps::recv(kMyrinet, 1000, 0), 39220, kTol);
  EXPECT_NEAR(loggps::recv(kMyrinet, 1000, 20000), 19220, kTol);  // 7770 + 11450
  EXPECT_NEAR(loggps::recv(kMyrinet, 1000, 30000), 11450, kTol);  // message already there
  EXPECT_NEAR(loggps::recv(kMyrinet, 1000, -5000), 44220, kTol);  // receiver 5 us early
  // (8): max{56930 + 125179.83 - d, 0} + 53930.
  EXPECT_NEAR(loggps::recv(kMyrinet, 10000, 0), 236039.83, kTol);
  EXPECT_NEAR(loggps::recv(kMyrinet, 10000, 100000), 136039.83, kTol);  // 82109.83 + 53930
  // (9): max{7580 - d, 0} + 6730 + 14310 + 102730 + 125579.83 + 83930.
  EXPECT_NEAR(loggps::recv(kMyrinet, 20000, 0), 340859.83, kTol);
  EXPECT_NEAR(loggps::recv(kMyrinet, 20000, 50000), 333279.83, kTol);
}

TEST(LogGpsTable4, FastEthernetRoutineTimes) {
  EXPECT_NEAR(loggps::send(kFastEthernet, 500, 0), 28525, kTol);
  EXPECT_NEAR(loggps::send(kFastEthernet, 20000, 0), 355460, kTol);       // 69260*2 + 216940
  EXPECT_NEAR(loggps::send(kFastEthernet, 20000, 100000), 408540, kTol);  // 122340+69260+216940
  EXPECT_NEAR(loggps::recv(kFastEthernet, 500, 100000), 75595, kTol);     // 47490 + 28105
  EXPECT_NEAR(loggps::recv(kFastEthernet, 5000, 0), 640734.64, kTol);
  // (9), d = 0: 46920 + 22340 + 69260 + 216940 + 1452904.64 + 220140; d = 1e5: no wait.
  EXPECT_NEAR(loggps::recv(kFastEthernet, 20000, 0), 2028504.64, kTol);
  EXPECT_NEAR(loggps::recv(kFastEthernet, 20000, 100000), 1981584.64, kTol);
}

TEST(LogGpsTable4, WaitUsesTheSignCorrectedElapsedTime) {
  // Digest check: Isend with Tblk = 10 us, ti = 0, tw = 100 us. As printed (ti - tw) it would
  // be 110 us; corrected it is max{10 - 100 us, o'} = o'.
  EXPECT_NEAR(loggps::wait(kMyrinet, 10000, 0, 100000), 6730, kTol);
  // Tblk = T1(1000) = 11750, wait called 5 us after the Isend: 6750 left (> o').
  EXPECT_NEAR(loggps::wait(kMyrinet, 11750, 1000, 6000), 6750, kTol);
}

TEST(LogGpsTable6, MyrinetRoundTrips) {
  // (12), k = 1000: T1 + 2T2 + T3 = 55240. w = 0: 55240 + 23200 = 78440; w = 60000:
  // 60000 + 23200 = 83200; w = 5e5: 523200.
  EXPECT_NEAR(loggps::rtt(kMyrinet, 1000, 0), 78440, kTol);
  EXPECT_NEAR(loggps::rtt(kMyrinet, 1000, 30000), 78440, kTol);  // w hidden by the network
  EXPECT_NEAR(loggps::rtt(kMyrinet, 1000, 60000), 83200, kTol);
  EXPECT_NEAR(loggps::rtt(kMyrinet, 1000, 5e5), 523200, kTol);
  // (13), k = 10000: w = 0: 2 * 236039.83; w = 5e5: 5e5 + 56930 + 53930.
  EXPECT_NEAR(loggps::rtt(kMyrinet, 10000, 0), 472079.66, kTol);
  EXPECT_NEAR(loggps::rtt(kMyrinet, 10000, 5e5), 610860, kTol);
  // (14), k = 20000, w = 0: (125579.83 + 83930 + 7580) + 205460 + 209509.83 + 28620 + 28620
  // - 7580 = 681719.66; w = 5e5: 5e5 + 205460 + 209509.83 + 28620 + 28620 - 7580.
  EXPECT_NEAR(loggps::rtt(kMyrinet, 20000, 0), 681719.66, kTol);
  EXPECT_NEAR(loggps::rtt(kMyrinet, 20000, 5e5), 964629.83, kTol);
}

TEST(LogGpsTable6, FastEthernetRoundTrips) {
  // (12), k = 500: T1 + 2T2 + T3 = 294560; w = 0: 351190; w = 5e5: 5e5 + 56630.
  EXPECT_NEAR(loggps::rtt(kFastEthernet, 500, 0), 351190, kTol);
  EXPECT_NEAR(loggps::rtt(kFastEthernet, 500, 5e5), 556630, kTol);
  // (13), k = 5000: T1 + 2T2' + T3 = 1117289.28 > 5e5, so w = 5e5 does not hide the network:
  // the round trip stays 2 * 640734.64.
  EXPECT_NEAR(loggps::rtt(kFastEthernet, 5000, 5e5), 1281469.28, kTol);
  EXPECT_NEAR(loggps::rtt_network_excess(kFastEthernet, 5000, 5e5), 617289.28, kTol);
  // (14), k = 20000: w = 0: 12o' + 6L + 2k(Osl+Orl+Gl) + 2s(Gs-Gl) = 268080 + 147480
  // + 3388400 + 253049.28; w = 1e7: 1e7 + 223400 + 98320 + 1888800 + 126524.64.
  EXPECT_NEAR(loggps::rtt(kFastEthernet, 20000, 0), 4057009.28, kTol);
  EXPECT_NEAR(loggps::rtt(kFastEthernet, 20000, 1e7), 12337044.64, kTol);
}

TEST(LogGpsTable6, LargeWRoundTripIsContinuousAtTheShortLimit) {
  // At w = W both (12) and (13) are W + 2o' + k(Oss + Ors): one step of Oss + Ors across s.
  for (const LogGpsParams& p : {kMyrinet, kFastEthernet}) {
    const double W = 1e8;
    EXPECT_NEAR(loggps::rtt(p, p.s + 1, W) - loggps::rtt(p, p.s, W), p.Oss + p.Ors, kTol);
    // At w = 0, (13) at k = s equals (12): the step to s + 1 is one byte of (13)'s slope.
    EXPECT_NEAR(loggps::rtt(p, p.s + 1, 0) - loggps::rtt(p, p.s, 0), 2 * (p.Oss + p.Ors + p.Gl),
                kTol);
  }
}

TEST(LogGpsTable6, JumpAtTheEagerLimitIsDOfWAndDOfZero) {
  // Myrinet D(W) = 53840 + 3400 + 16383*4.58 - 16383*0.86 + 124257.47 + 8192*0.04
  // = 242769.91; D(0) = 57240 - 2*16383*0.22 - 2*16383*0.86 = 21852.72.
  EXPECT_NEAR(loggps::rtt_jump_w_large(kMyrinet), 242769.91, kTol);
  EXPECT_NEAR(loggps::rtt_jump_w0(kMyrinet), 21852.72, kTol);
  // Fast Ethernet D(W) = 1559221.46, D(0) = 136801.52 (same formulas).
  EXPECT_NEAR(loggps::rtt_jump_w_large(kFastEthernet), 1559221.46, kTol);
  EXPECT_NEAR(loggps::rtt_jump_w0(kFastEthernet), 136801.52, kTol);
  // One byte past S: the jump plus one byte of the k > S slope (2Osl + Orl + Gl at w = W,
  // 2(Osl + Orl + Gl) at w = 0).
  for (const LogGpsParams& p : {kMyrinet, kFastEthernet}) {
    const double W = 1e8;
    EXPECT_NEAR(loggps::rtt(p, p.S + 1, W) - loggps::rtt(p, p.S, W),
                loggps::rtt_jump_w_large(p) + 2 * p.Osl + p.Orl + p.Gl, 1e-5);
    EXPECT_NEAR(loggps::rtt(p, p.S + 1, 0) - loggps::rtt(p, p.S, 0),
                loggps::rtt_jump_w0(p) + 2 * (p.Osl + p.Orl + p.Gl), 1e-5);
  }
}

TEST(LogGpsContention, ScalesTheLargestPerByteParameterOfTheFormula) {
  // Myrinet k <= s: {Oss 5.02, Ors 4.72, Gs 15.17} -> Gs * 4.
  LogGpsParams c = loggps::contended(kMyrinet, 1000, 4);
  EXPECT_DOUBLE_EQ(c.Gs, 60.68);
  EXPECT_DOUBLE_EQ(c.Oss, 5.02);
  // s < k <= S: {Oss 5.02, Ors 4.72, Gl 0.04} -> Oss * 4 (not Osl, unused by (2)).
  c = loggps::contended(kMyrinet, 10000, 4);
  EXPECT_DOUBLE_EQ(c.Oss, 20.08);
  EXPECT_DOUBLE_EQ(c.Osl, 4.80);
  EXPECT_DOUBLE_EQ(c.Gs, 15.17);
  // k > S: {Osl 4.80, Orl 3.86, Gl 0.04} -> Osl * 4.
  c = loggps::contended(kMyrinet, 20000, 4);
  EXPECT_DOUBLE_EQ(c.Osl, 19.2);
  // Fast Ethernet k > S: Gl 65.09 is the largest -> * 3; the message then takes longer.
  c = loggps::contended(kFastEthernet, 20000, 3);
  EXPECT_NEAR(c.Gl, 195.27, 1e-12);
  EXPECT_NEAR(loggps::comm_time(c, 20000, 0) - loggps::comm_time(kFastEthernet, 20000, 0),
              18977 * 2 * 65.09, 1e-5);
  // One sender changes nothing; zero senders is an error.
  EXPECT_DOUBLE_EQ(loggps::contended(kMyrinet, 1000, 1).Gs, 15.17);
  EXPECT_THROW(loggps::contended(kMyrinet, 1000, 0), std::invalid_argument);
}

TEST(LogGpsProtocol, SwitchesAtSAndBigS) {
  EXPECT_EQ(loggps::protocol(kMyrinet, 8191), LogGpsProtocol::short_msg);
  EXPECT_EQ(loggps::protocol(kMyrinet, 8192), LogGpsProtocol::eager);
  EXPECT_EQ(loggps::protocol(kMyrinet, 16383), LogGpsProtocol::eager);
  EXPECT_EQ(loggps::protocol(kMyrinet, 16384), LogGpsProtocol::rendezvous);
}

}  // namespace
}  // namespace netwarp::validation
